/**
 * `tae` writing to a full disk (a small tmpfs, see helpers/small-disk.ts): each command exits
 * 7 with one line naming what it could not write, and leaves nothing half-written: an output
 * file, standard output, an upload, a parse job's event index, a rule pack. Skipped where no
 * tmpfs can be mounted.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { type SmallDisk, smallDisk, smallDiskUnavailable } from './helpers/small-disk.js';
import { manyEventsLog, smallLog } from './helpers/small-log.js';

const SKIP = smallDiskUnavailable();
const MiB = 1024 * 1024;
const inputs = mkdtempSync(join(tmpdir(), 'tae-cli-full-disk-'));
const SMALL = join(inputs, 'small.evtx');
const MANY = join(inputs, 'many.evtx');
const BIG = join(inputs, 'big.bin');
const PACK = join(inputs, 'big-pack');
after(() => rmSync(inputs, { recursive: true, force: true }));

/** A Sigma rule of about 5 KB (a long description), valid and distinct per `i`. */
const sigmaRule = (i: number) =>
  `title: Padding rule ${i}\nid: 00000000-0000-4000-8000-${String(i).padStart(12, '0')}\n` +
  `description: ${'padding '.repeat(600)}\nlogsource: {product: windows, service: security}\n` +
  `detection:\n  s: {EventID: ${4000 + i}}\n  condition: s\nlevel: low\n`;

describe('tae on a full disk', { skip: SKIP }, () => {
  let disk: SmallDisk;
  let data: string;
  before(async () => {
    writeFileSync(SMALL, smallLog());
    writeFileSync(MANY, manyEventsLog(1000));
    writeFileSync(BIG, Buffer.alloc(2 * MiB, 0x42));
    mkdirSync(PACK);
    for (let i = 0; i < 300; i++) writeFileSync(join(PACK, `padding_${i}.yml`), sigmaRule(i));
    disk = await smallDisk(16);
    data = join(disk.dir, 'data');
  });
  afterEach(() => disk.unfill()); // a failed test leaves the next one room
  after(() => disk?.close());

  test('tae analyze -o and --html exit 7 naming the file, and leave no partial file', async () => {
    disk.fill(4096); // room for the start of a document, not the whole
    for (const [flag, name] of [
      ['-o', 'results.json'],
      ['--html', 'report.html'],
    ] as const) {
      const r = await disk.run(['analyze', SMALL, flag, join(disk.dir, name), '-q']);
      assert.deepEqual(
        [r.code, r.stderr],
        [7, `tae: cannot write ${join(disk.dir, name)}: no space left on the disk\n`],
      );
      assert.equal(existsSync(disk.outside(name)), false, `${name} was removed`);
    }
  });

  test('a rule cache on a full disk costs the run its cache, not its result, and keeps no partial entry', async () => {
    disk.fill(16 * 1024);
    const r = await disk.shell(
      `TAE_CACHE_DIR=${join(disk.dir, 'cache')} exec $TAE analyze ${SMALL} --sigma -q`,
    );
    assert.deepEqual([r.code, r.stderr], [0, '']);
    assert.deepEqual(
      readdirSync(disk.outside('cache')).filter((n) => n.endsWith('.tmp')),
      [],
    );
  });

  test('tae parse into a file on a full disk exits 7: standard output could not be written', async () => {
    disk.fill();
    const r = await disk.shell(`exec $TAE parse ${SMALL} > ${join(disk.dir, 'out.jsonl')}`);
    assert.deepEqual(
      [r.code, r.stderr],
      [7, 'tae: cannot write standard output: no space left on the disk\n'],
    );
  });

  test('tae search over files exits 7 when its temporary index does not fit, and leaves none behind', async () => {
    disk.fill(256 * 1024);
    const r = await disk.shell(`TMPDIR=${disk.dir} exec $TAE search ${MANY} administrator`);
    // Built in the run's own directory (then kept in the index cache), or without a cache in
    // the library's temporary one inside it.
    const index = `${disk.dir}/tae-search-[^/]+/(?:tae-search-index-[^/]+/)?events\\.sqlite`;
    assert.equal(r.code, 7, r.stderr);
    assert.match(r.stderr, new RegExp(`^tae: cannot write the index ${index}: no space left on the disk\n$`));
    assert.deepEqual(
      readdirSync(disk.outside()).filter((n) => n.startsWith('tae-search')),
      [],
    );
  });

  test('tae files upload exits 7 naming the data directory, and stores nothing', async () => {
    disk.fill(MiB);
    const r = await disk.run(['files', 'upload', SMALL, BIG, '--data', data]);
    assert.deepEqual(
      [r.code, r.stderr],
      [7, `tae: cannot write to the data directory ${data}: no space left on the disk\n`],
    );
    assert.deepEqual(readdirSync(disk.outside('data', 'files')), []);
    assert.deepEqual(readdirSync(disk.outside('data', 'tmp')), []);
  });

  test('tae jobs parse exits 7 when the job failed for want of space for its event index', async () => {
    const up = await disk.run(['files', 'upload', MANY, '--data', data, '--json']);
    assert.equal(up.code, 0, up.stderr);
    const id = (JSON.parse(up.stdout) as { file_id: string }[])[0]!.file_id;
    disk.fill(256 * 1024);
    const r = await disk.run(['jobs', 'parse', id, '--data', data]);
    const name = /^(\S+) \(/.exec(r.stdout)?.[1];
    assert.match(r.stdout, /: Failed\n/);
    assert.deepEqual(
      [r.code, r.stderr],
      [7, `tae: job ${name}: cannot write to the data directory ${data}: no space left on the disk\n`],
    );
    disk.unfill();
    const again = await disk.run(['jobs', 'parse', id, '--data', data]);
    assert.deepEqual([again.code, again.stderr], [0, '']);
  });

  test('tae rules add of a pack that does not fit exits 7 and adds no part of it', async () => {
    const list = async () => {
      const r = await disk.run(['rules', 'list', '--data', data]);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { packs: { name: string }[] }).packs.map((p) => p.name);
    };
    assert.deepEqual(await list(), ['builtin']);
    disk.fill(256 * 1024);
    const r = await disk.run(['rules', 'add', PACK, '--data', data]);
    assert.deepEqual(
      [r.code, r.stderr],
      [7, `tae: cannot write to the data directory ${data}: no space left on the disk\n`],
    );
    disk.unfill();
    assert.deepEqual(await list(), ['builtin']);
    const added = await disk.run(['rules', 'add', PACK, '--data', data]);
    assert.equal(added.code, 0, added.stderr);
  });
});
