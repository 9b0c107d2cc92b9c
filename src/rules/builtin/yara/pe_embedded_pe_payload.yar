rule tae_pe_embedded_pe_payload : pe dropper
{
    meta:
        description = "PE file carrying a second PE image after its own headers: its own DOS stub message in the headers and another past the first kilobyte"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "low"

    strings:
        $dos_stub = "This program cannot be run in DOS mode"

    condition:
        uint16(0) == 0x5A4D and $dos_stub in (0..1024) and $dos_stub in (1025..filesize)
}
