rule tae_webshell_aspx_process_start : webshell aspx
{
    meta:
        description = "ASP.NET page that starts a process and reads request parameters: the shape of a command webshell"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "high"

    strings:
        $page = "<%@ Page" nocase
        $start_info = "ProcessStartInfo" nocase
        $start = "Process.Start(" nocase
        $request_form = "Request.Form" nocase
        $request_query = "Request.QueryString" nocase
        $request_item = "Request[\"" nocase

    condition:
        $page and ($start_info or $start) and ($request_form or $request_query or $request_item) and filesize < 1MB
}
