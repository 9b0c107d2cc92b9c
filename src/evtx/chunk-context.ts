/** Per-chunk caches: names and template definitions are resolved by their offset in the chunk. */

import { BinXmlError, BinXmlParser } from './binxml.js';
import { u16, u32, utf16 } from './bytes.js';
import { type TemplateDefinition, templateKey } from './template.js';
import { rememberTemplate, reusedTemplate } from './template-cache.js';

export const CHUNK_SIZE = 0x10000;

const latin1 = new TextDecoder('latin1');

const SELF_REFERENCE = new BinXmlError('template definition refers to itself', 0);

/**
 * The definition's bytes minus the chunk-dependent ranges, then its names: together they
 * determine the tree. Lengths make the concatenation unambiguous.
 */
function fingerprintOf(b: Uint8Array, start: number, end: number, skips: number[], names: string[]): string {
  let s = '';
  let at = start;
  for (let i = 0; i < skips.length; i += 2) {
    const from = skips[i]!;
    if (from > at) s += latin1.decode(b.subarray(at, Math.min(from, end)));
    at = Math.max(at, skips[i + 1]!);
  }
  if (end > at) s += latin1.decode(b.subarray(at, end));
  s = `${s.length}:${s}`;
  for (const n of names) s += `${n.length}:${n}`;
  return s;
}

export class ChunkContext {
  private readonly names = new Map<number, string>();
  private readonly templates = new Map<number, TemplateDefinition | BinXmlError>();

  constructor(readonly bytes: Uint8Array) {}

  nameAt(offset: number): string {
    const cached = this.names.get(offset);
    if (cached !== undefined) return cached;
    const b = this.bytes;
    if (offset < 0 || offset + 8 > b.length)
      throw new BinXmlError(`name offset ${offset} outside the chunk`, offset);
    const units = u16(b, offset + 6);
    if (offset + 8 + units * 2 > b.length)
      throw new BinXmlError(`name at ${offset} overruns the chunk`, offset);
    const name = utf16(b, offset + 8, units);
    this.names.set(offset, name);
    return name;
  }

  /** Parses (once) the template definition at `offset`: next offset, GUID, data size, then BinXML. */
  templateAt(offset: number): TemplateDefinition {
    const cached = this.templates.get(offset);
    if (cached !== undefined) {
      if (cached instanceof BinXmlError) throw cached;
      return cached;
    }
    const b = this.bytes;
    // A definition that instantiates itself must fail, not recurse forever.
    this.templates.set(offset, SELF_REFERENCE);
    try {
      if (offset < 0 || offset + 24 > b.length) {
        throw new BinXmlError(`template offset ${offset} outside the chunk`, offset);
      }
      const size = u32(b, offset + 20);
      const whole = offset + 24 + size <= b.length;
      const reused = whole ? reusedTemplate(b, offset, size) : null;
      if (reused !== null) {
        const def: TemplateDefinition = { offset, nodes: reused.nodes, key: reused.key };
        this.templates.set(offset, def);
        return def;
      }
      const end = Math.min(b.length, offset + 24 + size);
      const parser = new BinXmlParser(this, offset + 24, end, true);
      const nodes = parser.parseDocument();
      const fingerprint = parser.nestedInstance
        ? JSON.stringify(nodes)
        : fingerprintOf(b, offset + 24, parser.pos, parser.skips, parser.names);
      const def: TemplateDefinition = { offset, nodes, key: templateKey(fingerprint) };
      if (whole && !parser.nestedInstance) rememberTemplate(b, offset, size, parser.pos, def, parser);
      this.templates.set(offset, def);
      return def;
    } catch (e) {
      const err = e instanceof BinXmlError ? e : new BinXmlError(String(e), offset);
      this.templates.set(offset, err);
      throw err;
    }
  }
}
