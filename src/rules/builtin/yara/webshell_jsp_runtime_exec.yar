rule tae_webshell_jsp_runtime_exec : webshell jsp
{
    meta:
        description = "JSP page that runs an operating-system command built from a request parameter"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "high"

    strings:
        $scriptlet = "<%"
        $exec = "Runtime.getRuntime().exec(" nocase
        $builder = "new ProcessBuilder(" nocase
        $param = "request.getParameter(" nocase

    condition:
        $scriptlet and ($exec or $builder) and $param and filesize < 1MB
}
