import "pe"

rule tae_pe_packer_upx_sections : packer pe
{
    meta:
        description = "PE file whose section table carries the UPX0 and UPX1 section names the UPX packer writes"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "low"

    condition:
        pe.is_pe
        and for any s in pe.sections : (s.name == "UPX0")
        and for any s in pe.sections : (s.name == "UPX1")
}
