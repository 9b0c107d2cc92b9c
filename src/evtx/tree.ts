/**
 * The one tree every renderer walks: a record's BinXML after template expansion.
 * Values keep their BinXML type so JSON can emit numbers where the evtx crate does, and
 * their text is formatted once at decode time.
 */

export type XmlNode = XmlElement | XmlText | XmlValue | XmlCharRef | XmlEntityRef | XmlCData | XmlPi;

export interface XmlElement {
  readonly kind: 'element';
  readonly name: string;
  readonly attrs: XmlAttr[];
  readonly children: XmlNode[];
}

export interface XmlAttr {
  readonly name: string;
  /** Text-like nodes only: text, value, char and entity references. */
  readonly value: XmlNode[];
}

export interface XmlText {
  readonly kind: 'text';
  readonly text: string;
}

export interface XmlValue {
  readonly kind: 'value';
  /** BinXML value type (0x01 string … 0x15 HexInt64, 0x80 bit set for arrays). */
  readonly type: number;
  /** Rendered text; for arrays the items joined by ','. Empty for NULL. */
  readonly text: string;
  /** Items of an array value, else null. */
  readonly items: readonly string[] | null;
}

export interface XmlCharRef {
  readonly kind: 'charref';
  readonly code: number;
}

export interface XmlEntityRef {
  readonly kind: 'entityref';
  readonly name: string;
}

export interface XmlCData {
  readonly kind: 'cdata';
  readonly text: string;
}

export interface XmlPi {
  readonly kind: 'pi';
  readonly target: string;
  readonly data: string;
}

export const VALUE_TYPE = {
  NULL: 0x00,
  STRING: 0x01,
  ANSI_STRING: 0x02,
  INT8: 0x03,
  UINT8: 0x04,
  INT16: 0x05,
  UINT16: 0x06,
  INT32: 0x07,
  UINT32: 0x08,
  INT64: 0x09,
  UINT64: 0x0a,
  REAL32: 0x0b,
  REAL64: 0x0c,
  BOOL: 0x0d,
  BINARY: 0x0e,
  GUID: 0x0f,
  SIZE_T: 0x10,
  FILETIME: 0x11,
  SYSTEMTIME: 0x12,
  SID: 0x13,
  HEX_INT32: 0x14,
  HEX_INT64: 0x15,
  EVT_HANDLE: 0x20,
  BINXML: 0x21,
  EVT_XML: 0x23,
  ARRAY: 0x80,
} as const;

/** Types the evtx crate writes as bare JSON numbers or booleans when they are an element's sole content. */
export function isJsonScalarType(type: number): boolean {
  return (type >= 0x03 && type <= 0x0a) || type === 0x0d;
}

export const textNode = (text: string): XmlText => ({ kind: 'text', text });
