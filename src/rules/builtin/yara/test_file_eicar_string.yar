rule tae_test_file_eicar_string : test
{
    meta:
        description = "EICAR anti-malware test file: the 68-character test string at the start of a small file"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "informational"

    strings:
        $test = "X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*"

    condition:
        $test at 0 and filesize <= 128
}
