/**
 * BinXML token stream → tree, with template expansion. One parser serves template
 * definitions (substitutions become placeholders) and record content; every read is
 * bounded by the chunk so a hostile offset can never walk outside it.
 */
import { u16, u32, utf16 } from './bytes.js';
import type { ChunkContext } from './chunk-context.js';
import {
  instantiate,
  type Substitution,
  type TemplateDefinition,
  type TemplateInstance,
} from './template.js';
import { VALUE_TYPE as T, type XmlAttr, type XmlElement, type XmlNode } from './tree.js';
import { decodeValue } from './values.js';

export class BinXmlError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** A node of a template definition: a resolved node or a placeholder for substitution `id`. */
export interface Placeholder {
  readonly kind: 'subst';
  readonly id: number;
  readonly type: number;
  readonly optional: boolean;
}

export type TemplateNode = XmlNode | Placeholder | TemplateElement;

export interface TemplateElement {
  readonly kind: 'element';
  readonly name: string;
  readonly attrs: { readonly name: string; readonly value: TemplateNode[] }[];
  readonly children: TemplateNode[];
  /** True when the element or a descendant holds a placeholder (else it is shared as is). */
  readonly dynamic: boolean;
}

const MAX_DEPTH = 96;
const NO_NAMES: string[] = [];
const NO_NUMBERS: number[] = [];

export class BinXmlParser {
  pos: number;
  private depth = 0;
  /** Names resolved while parsing a template definition, in order (part of its fingerprint). */
  readonly names: string[];
  /**
   * In a template definition, the [start, end) byte ranges that depend on where the chunk
   * stores names (name offsets, inline name structures, sizes that count them): the
   * fingerprint leaves them out so the same template in another chunk gets the same key.
   */
  readonly skips: number[];
  /** In a template definition, where each name's offset is stored (with `names`, see template-cache.ts). */
  readonly nameFields: number[];
  /** True when a template definition instantiates another template (its fingerprint then needs the tree). */
  nestedInstance = false;

  constructor(
    private readonly ctx: ChunkContext,
    start: number,
    private readonly end: number,
    /** In a template definition substitution tokens become placeholders. */
    private readonly inTemplate: boolean,
  ) {
    this.pos = start;
    // Only template definitions record these; record content (one parser per embedded document) shares empty ones.
    this.names = inTemplate ? [] : NO_NAMES;
    this.skips = inTemplate ? [] : NO_NUMBERS;
    this.nameFields = inTemplate ? [] : NO_NUMBERS;
  }

  private need(n: number, what: string): void {
    if (this.pos + n > this.end) throw new BinXmlError(`truncated ${what}`, this.pos);
  }

  /**
   * A record is almost always one fragment holding one template instance: return the
   * definition and values without building a tree, so compiled renderers can fill them in.
   * Anything else falls back to the full tree.
   */
  parseRecord(): { instance: TemplateInstance | null; nodes: XmlNode[] | null } {
    const b = this.ctx.bytes;
    const start = this.pos;
    const header = b[start] === 0x0f ? 4 : 0; // embedded documents often omit the fragment header
    if (b[start + header] === 0x0c) {
      this.pos += header;
      const instance = this.readTemplateInstance();
      if (this.pos >= this.end || b[this.pos] === 0x00) return { instance, nodes: null };
    }
    this.pos = start;
    return { instance: null, nodes: this.parseDocument() as XmlNode[] };
  }

  /** Parses a fragment sequence up to EOF (or the end of the window). */
  parseDocument(): TemplateNode[] {
    const out: TemplateNode[] = [];
    this.parseContent(out, true);
    return out;
  }

  private parseContent(out: TemplateNode[], topLevel: boolean): void {
    const b = this.ctx.bytes;
    if (++this.depth > MAX_DEPTH) throw new BinXmlError('nesting too deep', this.pos);
    while (this.pos < this.end) {
      const token = b[this.pos]!;
      switch (token) {
        case 0x00:
          this.pos++;
          if (topLevel) {
            this.depth--;
            return;
          }
          throw new BinXmlError('end of stream inside an element', this.pos - 1);
        case 0x04:
          if (topLevel) throw new BinXmlError('end element token outside an element', this.pos);
          this.pos++;
          this.depth--;
          return;
        case 0x0f:
          this.need(4, 'fragment header');
          this.pos += 4;
          break;
        case 0x01:
        case 0x41:
          out.push(this.parseElement(token === 0x41));
          break;
        case 0x0c:
          this.parseTemplateInstance(out);
          break;
        default:
          this.parseTextLike(token, out);
      }
    }
    this.depth--;
    if (!topLevel) throw new BinXmlError('unterminated element', this.pos);
  }

  /** Value, CDATA, references, PIs and substitutions: content allowed both in elements and attributes. */
  private parseTextLike(token: number, out: TemplateNode[]): void {
    const b = this.ctx.bytes;
    switch (token) {
      case 0x05:
      case 0x45: {
        this.need(4, 'value token');
        const type = b[this.pos + 1]!;
        if (type !== T.STRING) throw new BinXmlError(`value token of type 0x${type.toString(16)}`, this.pos);
        const units = u16(b, this.pos + 2);
        this.pos += 4;
        this.need(units * 2, 'value text');
        out.push({ kind: 'text', text: utf16(b, this.pos, units) });
        this.pos += units * 2;
        return;
      }
      case 0x07:
      case 0x47: {
        this.need(3, 'CDATA');
        const units = u16(b, this.pos + 1);
        this.pos += 3;
        this.need(units * 2, 'CDATA text');
        out.push({ kind: 'cdata', text: utf16(b, this.pos, units) });
        this.pos += units * 2;
        return;
      }
      case 0x08:
      case 0x48:
        this.need(3, 'character reference');
        out.push({ kind: 'charref', code: u16(b, this.pos + 1) });
        this.pos += 3;
        return;
      case 0x09:
      case 0x49: {
        this.need(5, 'entity reference');
        const name = this.readName(this.pos + 1);
        out.push({ kind: 'entityref', name });
        return;
      }
      case 0x0a: {
        this.need(5, 'PI target');
        const target = this.readName(this.pos + 1);
        let data = '';
        if (this.pos < this.end && b[this.pos] === 0x0b) {
          this.need(3, 'PI data');
          const units = u16(b, this.pos + 1);
          this.pos += 3;
          this.need(units * 2, 'PI data text');
          data = utf16(b, this.pos, units);
          this.pos += units * 2;
        }
        out.push({ kind: 'pi', target, data });
        return;
      }
      case 0x0d:
      case 0x0e: {
        this.need(4, 'substitution');
        if (!this.inTemplate) throw new BinXmlError('substitution outside a template', this.pos);
        out.push({
          kind: 'subst',
          id: u16(b, this.pos + 1),
          type: b[this.pos + 3]!,
          optional: token === 0x0e,
        });
        this.pos += 4;
        return;
      }
      default:
        throw new BinXmlError(`unexpected token 0x${token.toString(16)}`, this.pos);
    }
  }

  /**
   * Reads the name whose offset is stored at `at` and moves past it: names are written
   * inline the first time a chunk uses them, and referenced by offset afterwards.
   */
  private readName(at: number): string {
    const offset = u32(this.ctx.bytes, at);
    this.pos = at + 4;
    const name = this.ctx.nameAt(offset);
    if (offset === this.pos) this.pos += 8 + name.length * 2 + 2;
    if (this.inTemplate) {
      this.names.push(name);
      this.nameFields.push(at);
      this.skips.push(at, this.pos);
    }
    return name;
  }

  private parseElement(hasAttrs: boolean): TemplateElement {
    const b = this.ctx.bytes;
    const start = this.pos;
    this.need(11, 'open start element');
    // token, dependency id (u16, only inside template definitions), data size (u32), name offset
    if (this.inTemplate) this.skips.push(this.pos + 3, this.pos + 7);
    const name = this.readName(this.pos + (this.inTemplate ? 7 : 5));
    const attrs: { name: string; value: TemplateNode[] }[] = [];
    let dynamic = false;
    if (hasAttrs) {
      this.need(4, 'attribute list size');
      if (this.inTemplate) this.skips.push(this.pos, this.pos + 4);
      this.pos += 4;
      let more = true;
      while (more && this.pos < this.end) {
        const t = b[this.pos]!;
        if (t !== 0x06 && t !== 0x46) break;
        more = t === 0x46;
        this.need(5, 'attribute');
        const attrName = this.readName(this.pos + 1);
        const value: TemplateNode[] = [];
        while (this.pos < this.end && isAttributeValueToken(b[this.pos]!))
          this.parseTextLike(b[this.pos]!, value);
        if (value.some(isDynamic)) dynamic = true;
        attrs.push({ name: attrName, value });
      }
    }
    this.need(1, 'close start element');
    const close = b[this.pos]!;
    const children: TemplateNode[] = [];
    if (close === 0x02) {
      this.pos++;
      this.parseContent(children, false);
    } else if (close === 0x03) {
      this.pos++;
    } else {
      throw new BinXmlError(
        `expected close start element, found 0x${close.toString(16)} (element at ${start})`,
        this.pos,
      );
    }
    if (!dynamic) dynamic = children.some(isDynamic);
    return { kind: 'element', name, attrs, children, dynamic };
  }

  private parseTemplateInstance(out: TemplateNode[]): void {
    if (this.inTemplate) this.nestedInstance = true;
    const { def, substitutions } = this.readTemplateInstance();
    const nodes = instantiate(def.nodes, substitutions);
    for (const n of nodes) out.push(n);
  }

  private readTemplateInstance(): TemplateInstance {
    const b = this.ctx.bytes;
    this.need(10, 'template instance');
    const defOffset = u32(b, this.pos + 6);
    this.pos += 10;
    let def: TemplateDefinition;
    if (defOffset === this.pos) {
      this.need(24, 'template definition header');
      const dataSize = u32(b, this.pos + 20);
      def = this.ctx.templateAt(defOffset);
      this.pos += 24 + dataSize;
      if (this.pos > this.end) throw new BinXmlError('template definition overruns its record', defOffset);
    } else {
      def = this.ctx.templateAt(defOffset);
    }
    return { def, substitutions: this.parseSubstitutions() };
  }

  private parseSubstitutions(): Substitution[] {
    const b = this.ctx.bytes;
    this.need(4, 'substitution count');
    const count = u32(b, this.pos);
    this.pos += 4;
    if (count * 4 > this.end - this.pos)
      throw new BinXmlError(`substitution count ${count} too large`, this.pos - 4);
    let valuePos = this.pos + count * 4;
    const values: Substitution[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const d = this.pos + i * 4;
      const size = u16(b, d);
      const type = b[d + 2]!;
      if (valuePos + size > this.end)
        throw new BinXmlError(`substitution ${i} overruns its record`, valuePos);
      values[i] =
        type === T.BINXML ? this.parseEmbedded(valuePos, size) : decodeValue(b, valuePos, size, type);
      valuePos += size;
    }
    this.pos = valuePos;
    return values;
  }

  /** A substitution that is itself BinXML (a nested document, possibly with its own templates). */
  private parseEmbedded(start: number, size: number): Substitution {
    if (size === 0) return [];
    if (this.depth > MAX_DEPTH) throw new BinXmlError('nesting too deep', start);
    const nested = new BinXmlParser(this.ctx, start, start + size, false);
    nested.depth = this.depth + 1;
    const { instance, nodes } = nested.parseRecord();
    return instance ?? (nodes as XmlNode[]);
  }
}

function isAttributeValueToken(t: number): boolean {
  return (
    t === 0x05 ||
    t === 0x45 ||
    t === 0x0d ||
    t === 0x0e ||
    t === 0x08 ||
    t === 0x48 ||
    t === 0x09 ||
    t === 0x49
  );
}

export function isDynamic(n: TemplateNode): boolean {
  return n.kind === 'subst' || (n.kind === 'element' && (n as TemplateElement).dynamic);
}

export type { XmlAttr, XmlElement };
