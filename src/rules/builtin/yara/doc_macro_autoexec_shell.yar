rule tae_doc_macro_autoexec_shell : document macro
{
    meta:
        description = "VBA source with an auto-run entry point (AutoOpen, Document_Open, Workbook_Open) that starts a shell or a WScript object"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "medium"

    strings:
        $auto_open = "AutoOpen" nocase ascii wide
        $document_open = "Document_Open" nocase ascii wide
        $workbook_open = "Workbook_Open" nocase ascii wide
        $shell = "Shell(" nocase ascii wide
        $wscript = "WScript.Shell" nocase ascii wide

    condition:
        ($auto_open or $document_open or $workbook_open) and ($shell or $wscript)
}
