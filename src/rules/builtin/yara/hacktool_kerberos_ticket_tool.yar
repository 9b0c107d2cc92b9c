rule tae_hacktool_kerberos_ticket_tool : hacktool credential_access
{
    meta:
        description = "Command verbs of Kerberos abuse tools (ticket requests, roasting, S4U, pass-the-ticket) found together in one file"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "high"

    strings:
        $asktgt = "asktgt" nocase ascii wide
        $asktgs = "asktgs" nocase ascii wide
        $kerberoast = "kerberoast" nocase ascii wide
        $asreproast = "asreproast" nocase ascii wide
        $s4u = "/impersonateuser:" nocase ascii wide
        $ptt = "/ptt" nocase ascii wide

    condition:
        3 of them
}
