rule tae_hacktool_credential_dumper_commands : hacktool credential_access
{
    meta:
        description = "Module::command strings of credential-dumping tools in the style of mimikatz (logon passwords, SAM, DCSync, golden tickets)"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "critical"

    strings:
        $logon = "sekurlsa::logonpasswords" nocase ascii wide
        $sam = "lsadump::sam" nocase ascii wide
        $dcsync = "lsadump::dcsync" nocase ascii wide
        $golden = "kerberos::golden" nocase ascii wide
        $debug = "privilege::debug" nocase ascii wide
        $tickets = "sekurlsa::tickets" nocase ascii wide

    condition:
        2 of them
}
