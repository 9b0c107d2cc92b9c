rule tae_doc_rtf_embedded_object : document rtf
{
    meta:
        description = "RTF document with an embedded OLE object (\\object with \\objdata), the carrier of many document exploits"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "medium"

    strings:
        $object = "\\object" ascii
        $objdata = "\\objdata" ascii

    condition:
        uint32(0) == 0x74725C7B and $object and $objdata
}
