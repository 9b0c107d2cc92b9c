rule tae_webshell_php_eval_request : webshell php
{
    meta:
        description = "PHP page that passes request input (GET, POST, REQUEST, COOKIE) straight to eval, assert or a shell function"
        author = "threat-analysis-engine"
        date = "2026-11-21"
        severity = "high"

    strings:
        $open = "<?php" nocase
        $run_input = /\b(eval|assert|system|shell_exec|passthru|exec|popen)\s*\(\s*(base64_decode\s*\(\s*)?\$_(GET|POST|REQUEST|COOKIE)\b/ nocase

    condition:
        $open and $run_input and filesize < 1MB
}
