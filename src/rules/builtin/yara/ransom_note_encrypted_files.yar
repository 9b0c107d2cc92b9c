rule tae_ransom_note_encrypted_files : ransomware
{
    meta:
        description = "Small text telling the reader their files were encrypted and pointing to payment or a Tor contact: a ransom note"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "high"

    strings:
        $encrypted = /(your|all) (important )?files (have been|were|are) encrypted/ nocase ascii wide
        $onion = /[a-z2-7]{16,56}\.onion/ nocase ascii wide
        $bitcoin = "bitcoin" nocase ascii wide
        $decrypt = "decrypt" nocase ascii wide

    condition:
        filesize < 200KB and $encrypted and $decrypt and ($onion or $bitcoin)
}
