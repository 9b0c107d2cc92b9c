rule tae_script_reverse_shell_oneliner : script c2
{
    meta:
        description = "Reverse-shell one-liners: an interactive shell wired to /dev/tcp, netcat -e, or a PowerShell TCPClient stream loop"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "high"

    strings:
        $dev_tcp = /(ba)?sh[ \t]+-i[ \t]+[^\r\n]{0,20}>&?[ \t]*\/dev\/tcp\/[0-9a-zA-Z.\-]+\/[0-9]{1,5}/ ascii wide
        $netcat = /\bnc(at)?[ \t]+[^\r\n]{0,60}-e[ \t]+\/bin\/(ba)?sh/ ascii wide
        $tcp_client = "Net.Sockets.TCPClient(" nocase ascii wide
        $stream = ".GetStream()" nocase ascii wide

    condition:
        filesize < 5MB and ($dev_tcp or $netcat or ($tcp_client and $stream))
}
