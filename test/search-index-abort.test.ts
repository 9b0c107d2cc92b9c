/**
 * An index build that is dropped after `finish` made its file (its job failed before the file
 * became the job's) leaves no file behind.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { intrusionStory } from '../fixtures/stories/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { EventIndexBuilder } from '../src/search/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-index-abort-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const files = (prefix: string) => readdirSync(dir).filter((f) => f.startsWith(prefix));

for (const worker of [false, true])
  test(`aborting a build after it finished removes its index file (completed ${worker ? 'in a worker' : 'on this thread'})`, async () => {
    const name = `finished-${worker}`;
    const b = new EventIndexBuilder(
      { path: join(dir, `${name}.sqlite`), key: null },
      { sigma: false, worker },
    );
    let n = 0;
    for await (const r of parseEvtx(intrusionStory()[0]!.bytes, { threads: 0 }))
      if (r.event !== undefined) {
        b.add(r.event, 'story.evtx', []);
        n++;
      }
    assert.equal((await b.finish()).events, n);
    assert.deepEqual(files(name), [`${name}.sqlite`]);
    await b.abort();
    assert.deepEqual(files(name), []);
    await b.abort(); // twice is harmless
    assert.deepEqual(files(name), []);
  });
