rule tae_c2_framework_default_pipe_names : c2
{
    meta:
        description = "Default named-pipe names of commercial post-exploitation frameworks (msagent_, postex_, status_, MSSE-<n>-server)"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "high"

    strings:
        $msagent = "\\\\.\\pipe\\msagent_" nocase ascii wide
        $postex = "\\\\.\\pipe\\postex_" nocase ascii wide
        $status = "\\\\.\\pipe\\status_" nocase ascii wide
        $msse = /MSSE-[0-9]{1,5}-server/ ascii wide

    condition:
        any of them
}
