rule tae_script_lsass_dump_commands : script credential_access
{
    meta:
        description = "Script or command text that dumps LSASS memory with procdump -ma or the comsvcs.dll MiniDump export"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "high"

    strings:
        $procdump = "procdump" nocase ascii wide
        $full_dump = /[ \t][-\/]ma[ \t]/ nocase ascii wide
        $lsass = "lsass" nocase ascii wide
        $comsvcs = "comsvcs" nocase ascii wide
        $minidump = "MiniDump" nocase ascii wide

    condition:
        filesize < 5MB and $lsass and (($procdump and $full_dump) or ($comsvcs and $minidump))
}
