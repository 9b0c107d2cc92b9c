rule tae_script_shadow_copy_deletion : script impact
{
    meta:
        description = "Commands that delete volume shadow copies or the backup catalog (vssadmin, wmic shadowcopy, wbadmin), as ransomware does before encrypting"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "high"

    strings:
        $vssadmin = /vssadmin(\.exe)?["']?[ \t]+delete[ \t]+shadows/ nocase ascii wide
        $wmic = /wmic(\.exe)?["']?[ \t]+shadowcopy[ \t]+delete/ nocase ascii wide
        $wbadmin = /wbadmin(\.exe)?["']?[ \t]+delete[ \t]+catalog/ nocase ascii wide

    condition:
        any of them
}
