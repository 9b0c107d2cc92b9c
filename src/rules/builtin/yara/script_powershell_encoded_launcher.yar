rule tae_script_powershell_encoded_launcher : script powershell
{
    meta:
        description = "A command line that starts PowerShell with -EncodedCommand (or a prefix of it) and a long Base64 argument"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "medium"

    strings:
        $launcher = /powershell(\.exe)?[^\r\n]{0,100}[ \t][-\/]e(c|n|nc|nco|ncod|ncode|ncoded|ncodedc|ncodedco|ncodedcom|ncodedcomm|ncodedcomma|ncodedcommand)?[ \t]+[A-Za-z0-9+\/=]{40}/ nocase ascii wide

    condition:
        $launcher
}
