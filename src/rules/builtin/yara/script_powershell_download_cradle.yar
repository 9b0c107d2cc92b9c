rule tae_script_powershell_download_cradle : script powershell
{
    meta:
        description = "PowerShell that downloads text with a WebClient or Invoke-WebRequest and runs it with Invoke-Expression"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "high"

    strings:
        $webclient = "Net.WebClient" nocase ascii wide
        $download = ".DownloadString(" nocase ascii wide
        $iwr = "Invoke-WebRequest" nocase ascii wide
        $iex = /\b(IEX|Invoke-Expression)\b/ nocase ascii wide

    condition:
        filesize < 5MB and $iex and (($webclient and $download) or $iwr)
}
