/**
 * `tae parse -f xml` and the library's per-record XML are well-formed XML 1.0 for every
 * input: the corpus, and logs our writer fills with what XML forbids (every C0 control, DEL, C1,
 * U+FFFE/U+FFFF, lone surrogates, `]]>`, markup, quotes) in values, attribute values and names.
 * Real parsers judge (saxes; ElementTree when python3 is there); the decoded values, read back
 * from the XML and unescaped, are the flat event's (the exact values).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { decodeChunk, recordNodes } from '../src/evtx/chunk.js';
import { compiledXmlTo } from '../src/evtx/compiled.js';
import { FILE_HEADER_SIZE } from '../src/evtx/file-header.js';
import { CHUNK_SIZE, renderXml, Sink } from '../src/evtx/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { CLI, ensureBuilt } from './helpers/cli-binary.js';
import { corpusEvtxFiles, corpusIndex, SKIP_NO_CORPUS } from './helpers/corpus.js';
import { hostileXmlEvents } from './helpers/hostile-xml.js';
import {
  decodeName,
  elementTreeError,
  hasPython,
  readXml,
  unescapeVisible,
  xmlFileErrors,
} from './helpers/xml-check.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-xml-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** `tae parse -f xml` of `files` into a file; returns its path. */
function parseToXml(files: string[], name: string): string {
  ensureBuilt();
  const list = join(dir, `${name}.list`);
  writeFileSync(list, files.join('\n'));
  const out = join(dir, `${name}.xml`);
  const fd = openSync(out, 'w');
  const r = spawnSync(process.execPath, [CLI, 'parse', `@${list}`, '-f', 'xml', '-q'], {
    stdio: ['ignore', fd, 'pipe'],
  });
  closeSync(fd);
  // 5: a few corpus records are damaged; everything else is still written.
  assert.ok(r.status === 0 || r.status === 5, `tae exited ${r.status}: ${r.stderr}`);
  return out;
}

/** Both parsers accept the file; saxes' count of the root's children (the records). */
async function assertWellFormedFile(path: string): Promise<number> {
  const { errors, children } = await xmlFileErrors(path);
  assert.deepEqual(errors, []);
  if (hasPython) assert.equal(elementTreeError({ path }), null);
  return children;
}

// The library's per-record documents differ from these only by the declaration (the same
// compiled fill writes both): they are read one by one for the hostile log below.
test('every corpus record is in a well-formed tae parse -f xml document', {
  skip: SKIP_NO_CORPUS,
}, async () => {
  const records = corpusIndex().reduce((n, f) => n + f.records, 0);
  assert.equal(await assertWellFormedFile(parseToXml(corpusEvtxFiles(), 'corpus')), records);
});

const hostileLog = (): Uint8Array => writeEvtx(hostileXmlEvents());

test('hostile values, attribute values and names give a well-formed tae parse -f xml document', async () => {
  const path = join(dir, 'hostile.evtx');
  writeFileSync(path, hostileLog());
  const xml = parseToXml([path], 'hostile');
  await assertWellFormedFile(xml);
  const text = readFileSync(xml, 'utf8');
  for (const raw of ['\u0001', '\u001f', '\ufffe', '\uffff']) assert.ok(!text.includes(raw));
  assert.ok(text.includes('\\u{1}') && text.includes('\\u{FFFE}') && text.includes('\\u{5C}u{41}'));
});

/** XML content as a parser reads it: CR becomes LF. */
const asContent = (s: string): string => s.replaceAll('\r\n', '\n').replaceAll('\r', '\n');

test('each hostile record is a document whose unescaped values and decoded names are the decoded ones', async () => {
  const events = hostileXmlEvents();
  let i = 0;
  for await (const r of parseEvtx(hostileLog(), { outputs: ['xml', 'event'] })) {
    const ev = events[i++]!;
    const { roots, errors } = readXml(r.xml!);
    assert.deepEqual(errors, [], r.xml);
    const event = r.event!;
    const system = roots[0]!.children[0]!;
    const child = (name: string) => system.children.find((c) => c.name === name)!;
    assert.equal(unescapeVisible(child('Provider').attrs[0]![1]), event.provider);
    assert.equal(unescapeVisible(child('Channel').text), asContent(event.channel));
    assert.equal(unescapeVisible(child('Computer').text), asContent(event.computer));
    const body = roots[0]!.children.find((c) => c.name === 'EventData' || c.name === 'UserData')!;
    if (body.name === 'EventData') {
      const read: Record<string, string[]> = {};
      for (const d of body.children) {
        const name = unescapeVisible(d.attrs[0]![1]);
        read[name] = [...(read[name] ?? []), unescapeVisible(d.text)];
      }
      const expected = Object.fromEntries(
        Object.entries(event.data).map(([k, v]) => [k, (Array.isArray(v) ? v : [v]).map(asContent)]),
      );
      assert.deepEqual(read, expected);
      continue;
    }
    const payload = body.children[0]!;
    const u = ev.userData!;
    assert.equal(decodeName(payload.name), u.element.toWellFormed());
    assert.deepEqual(
      payload.children.map((c) => decodeName(c.name)),
      Object.keys(u.fields).map((k) => k.toWellFormed()),
    );
    for (const c of payload.children)
      assert.equal(unescapeVisible(c.text), asContent(event.data[decodeName(c.name)] as string));
    // Every attribute keeps its value exactly; a repeated name reads back with its `#N`.
    const written = [['xmlns', 'urn:x'] as [string, string], ...(u.attributes as [string, string][])]
      .filter(([, v]) => v !== '')
      .map(([n, v]) => [n.toWellFormed(), v.toWellFormed()]);
    const read = payload.attrs.map(([n, v]) => [decodeName(n).replace(/#\d+$/, ''), unescapeVisible(v)]);
    assert.deepEqual(read, written);
  }
  assert.equal(i, events.length);
});

test('compiled and tree XML agree on the hostile log, and the compiled path ran', () => {
  const bytes = hostileLog();
  const sink = new Sink();
  let compiled = 0;
  for (let c = 0, at = FILE_HEADER_SIZE; at + CHUNK_SIZE <= bytes.length; c++, at += CHUNK_SIZE) {
    const { records } = decodeChunk(bytes.subarray(at, at + CHUNK_SIZE), { chunkIndex: c, fileOffset: at });
    for (const r of records) {
      sink.pos = 0;
      if (r.instance === null || !compiledXmlTo(sink, r.instance)) continue;
      compiled++;
      assert.equal(sink.toString(0), renderXml(recordNodes(r), { declaration: false }));
    }
  }
  assert.ok(compiled >= hostileXmlEvents().length - 1, `${compiled} compiled`);
});
