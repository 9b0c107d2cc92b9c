/**
 * The Process Inference Graph's DOT rendered to SVG at build time with @viz-js/viz (Graphviz
 * compiled to WebAssembly, no network), then reduced to an allowlist of elements and
 * attributes: whatever a hostile log put into the DOT, the page gets only shapes and text,
 * never a link, an image, a script or an external reference, and no id that could shadow the
 * page's own.
 */
import type { Viz } from '@viz-js/viz';
import { displayBlock } from '../display/index.js';
import { esc } from './html.js';

let viz: Promise<Viz> | undefined;

const ELEMENTS = new Set(['svg', 'g', 'title', 'polygon', 'polyline', 'path', 'ellipse', 'circle', 'text']);
const ATTRIBUTES = new Set([
  'id',
  'class',
  'transform',
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'points',
  'd',
  'cx',
  'cy',
  'rx',
  'ry',
  'r',
  'x',
  'y',
  'width',
  'height',
  'viewBox',
  'xmlns',
  'text-anchor',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-decoration',
  'xml:space',
]);

/**
 * Keeps allowed elements (with allowed attributes) and all text, shown through the page's one
 * sanitiser (labels are process names and command lines); drops everything else.
 */
export function sanitizeSvg(svg: string): string {
  const body = svg
    .replace(/<\?xml[^>]*>/g, '')
    .replace(/<!DOCTYPE[^>]*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
  return allowedMarkup(body).replace(
    /(^|>)([^<]+)/g,
    (_, end: string, text: string) => end + displayBlock(text),
  );
}

function allowedMarkup(body: string): string {
  return body.replace(
    /<(\/?)([A-Za-z][\w:.-]*)([^>]*?)(\/?)>|<|>/g,
    (whole, close, name, attrs, selfClose) => {
      if (whole === '<') return '&lt;';
      if (whole === '>') return '&gt;';
      if (!ELEMENTS.has(name)) return '';
      if (close) return `</${name}>`;
      const kept: string[] = [];
      for (const m of (attrs as string).matchAll(/([\w:.-]+)\s*=\s*"([^"]*)"/g)) {
        const [, key, value] = m as unknown as [string, string, string];
        if (!ATTRIBUTES.has(key) || /url\s*\(|javascript:|[<>]/i.test(value)) continue;
        kept.push(`${key}="${key === 'id' ? `pg-${value}` : value}"`);
      }
      return `<${name}${kept.length ? ` ${kept.join(' ')}` : ''}${selfClose ? '/' : ''}>`;
    },
  );
}

/** The graph as sanitized inline SVG, or a note when Graphviz could not lay it out. */
export async function graphSvg(dot: string): Promise<string> {
  // Loaded on first use: Graphviz's WebAssembly costs every other command its start-up time.
  viz ??= import('@viz-js/viz').then((m) => m.instance());
  const result = (await viz).render(dot, { format: 'svg' });
  if (result.status !== 'success') {
    const why = result.errors.map((e) => e.message).join('; ');
    return `<p class="empty">The graph could not be drawn: ${esc(why || 'Graphviz failed')}</p>`;
  }
  return sanitizeSvg(result.output);
}
