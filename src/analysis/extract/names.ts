/** Name lists: LOLBins, folders droppers favour, groups whose members control a host or domain. */

/** Living-off-the-land binaries: signed Windows programs attackers use as proxies (LOLBAS). */
export const LOLBINS: ReadonlySet<string> = new Set([
  'at.exe',
  'atbroker.exe',
  'bash.exe',
  'bitsadmin.exe',
  'certreq.exe',
  'certutil.exe',
  'cmstp.exe',
  'control.exe',
  'cscript.exe',
  'csc.exe',
  'desktopimgdownldr.exe',
  'diskshadow.exe',
  'dnscmd.exe',
  'esentutl.exe',
  'expand.exe',
  'extrac32.exe',
  'forfiles.exe',
  'ftp.exe',
  'hh.exe',
  'ieexec.exe',
  'infdefaultinstall.exe',
  'installutil.exe',
  'makecab.exe',
  'mavinject.exe',
  'msbuild.exe',
  'msdt.exe',
  'mshta.exe',
  'msiexec.exe',
  'msxsl.exe',
  'netsh.exe',
  'ntdsutil.exe',
  'odbcconf.exe',
  'pcalua.exe',
  'pcwrun.exe',
  'powershell.exe',
  'presentationhost.exe',
  'pwsh.exe',
  'reg.exe',
  'regasm.exe',
  'regini.exe',
  'regsvcs.exe',
  'regsvr32.exe',
  'replace.exe',
  'rundll32.exe',
  'sc.exe',
  'schtasks.exe',
  'scriptrunner.exe',
  'syncappvpublishingserver.exe',
  'verclsid.exe',
  'vssadmin.exe',
  'wevtutil.exe',
  'wmic.exe',
  'wscript.exe',
  'wsl.exe',
  'wuauclt.exe',
  'xwizard.exe',
]);

/** Folders where legitimate programs rarely live but droppers do. */
export const UNUSUAL_PATH =
  /\\(users\\public|appdata\\local\\temp|windows\\temp|temp|perflogs|programdata|\$recycle\.bin|windows\\tasks|windows\\debug|users\\[^\\]+\\downloads)\\/i;

/** Groups whose new members gain control of the host or domain (names and well-known SIDs). */
const PRIVILEGED_GROUP_NAMES = new Set([
  'administrators',
  'domain admins',
  'enterprise admins',
  'schema admins',
  'account operators',
  'backup operators',
  'server operators',
  'print operators',
  'remote desktop users',
  'remote management users',
  'dnsadmins',
  'group policy creator owners',
  'hyper-v administrators',
  'exchange windows permissions',
  'organization management',
]);

export function isPrivilegedGroup(name: string, sid: string): boolean {
  if (PRIVILEGED_GROUP_NAMES.has(name.trim().toLowerCase())) return true;
  return (
    /^S-1-5-32-(544|548|549|550|551|555|580)$/i.test(sid) || /^S-1-5-21-.*-(512|518|519|520)$/i.test(sid)
  );
}
