import "pe"
import "math"

rule tae_pe_high_entropy_section : pe packer
{
    meta:
        description = "PE file with a section of at least 4 KiB whose raw bytes have entropy above 7.4 bits per byte: packed or encrypted content"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "low"

    condition:
        pe.is_pe
        and for any s in pe.sections : (
            s.raw_data_size >= 4096
            and math.entropy(s.raw_data_offset, s.raw_data_size) > 7.4
        )
}
