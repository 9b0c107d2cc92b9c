/**
 * IPv4/IPv6 parsing and CIDR membership for `|cidr`, strict like Python's
 * `ip_network(strict=True)`: a network with host bits set is an error.
 */

export interface Cidr {
  readonly bytes: Uint8Array;
  readonly prefix: number;
}

function parseIPv4(s: string): Uint8Array | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!;
    // Leading zeros are refused, as Python does, since some parsers read them as octal.
    if (!/^\d{1,3}$/.test(p) || (p.length > 1 && p.startsWith('0'))) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out[i] = n;
  }
  return out;
}

function parseGroups(s: string): number[] | undefined {
  if (s === '') return [];
  const groups: number[] = [];
  const items = s.split(':');
  for (let i = 0; i < items.length; i++) {
    const g = items[i]!;
    if (i === items.length - 1 && g.includes('.')) {
      const v4 = parseIPv4(g);
      if (!v4) return undefined;
      groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      groups.push(Number.parseInt(g, 16));
    }
  }
  return groups;
}

function parseIPv6(s: string): Uint8Array | undefined {
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const head = parseGroups(halves[0]!);
  const tail = halves.length === 2 ? parseGroups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  return out;
}

/** 4 bytes for IPv4, 16 for IPv6 (zone ids like `%12` are ignored), undefined if neither. */
export function parseIp(s: string): Uint8Array | undefined {
  const t = s.trim();
  return t.includes(':') ? parseIPv6(t) : parseIPv4(t);
}

/**
 * The last text parsed, and its address: a rule lists many networks (one value each), and
 * each value's test read the same event text again. Callers must not change the bytes.
 */
let lastText: string | undefined;
let lastIp: Uint8Array | undefined;

export function parseIpOnce(s: string): Uint8Array | undefined {
  if (s !== lastText) {
    lastIp = parseIp(s);
    lastText = s;
  }
  return lastIp;
}

export function parseCidr(text: string): Cidr | string {
  const slash = text.indexOf('/');
  const addrText = slash < 0 ? text : text.slice(0, slash);
  const bytes = parseIp(addrText);
  if (!bytes || addrText.includes('%')) return `'${text}' is not an IPv4 or IPv6 network`;
  const max = bytes.length * 8;
  const prefixText = slash < 0 ? String(max) : text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max)
    return `'${text}' has an invalid prefix length (0–${max})`;
  const prefix = Number(prefixText);
  for (let bit = prefix; bit < max; bit++)
    if (bytes[bit >> 3]! & (0x80 >> (bit & 7))) return `'${text}' has host bits set`;
  return { bytes, prefix };
}

export function inCidr(net: Cidr, addr: Uint8Array): boolean {
  if (addr.length !== net.bytes.length) return false;
  const whole = net.prefix >> 3;
  for (let i = 0; i < whole; i++) if (addr[i] !== net.bytes[i]) return false;
  const rest = net.prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (addr[whole]! & mask) === net.bytes[whole];
}
