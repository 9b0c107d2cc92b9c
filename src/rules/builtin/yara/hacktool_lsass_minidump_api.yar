rule tae_hacktool_lsass_minidump_api : hacktool credential_access pe
{
    meta:
        description = "Executable that names lsass.exe, enables SeDebugPrivilege and imports or names MiniDumpWriteDump: an LSASS memory dumper"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "high"

    strings:
        $api = "MiniDumpWriteDump" ascii
        $lsass = "lsass.exe" nocase ascii wide
        $privilege = "SeDebugPrivilege" ascii wide

    condition:
        uint16(0) == 0x5A4D and all of them
}
