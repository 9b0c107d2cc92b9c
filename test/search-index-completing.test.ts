/**
 * `EventIndexBuilder.finish(signal, onCompleting)`: the job's thread is told once the completion
 * has begun on its own thread, so that it makes the job's insights meanwhile (jobs/winevtx.ts);
 * a build that fails before it begins tells it too, so that nothing waits forever.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { intrusionStory } from '../fixtures/stories/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { EventIndexBuilder } from '../src/search/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-index-completing-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function filled(name: string): Promise<{ builder: EventIndexBuilder; events: number }> {
  const builder = new EventIndexBuilder({ path: join(dir, `${name}.sqlite`), key: null }, { sigma: false });
  let events = 0;
  for await (const r of parseEvtx(intrusionStory()[0]!.bytes, { threads: 0 }))
    if (r.event !== undefined) {
      builder.add(r.event, 'story.evtx', []);
      events++;
    }
  return { builder, events };
}

test('a build completed in a worker says it has begun while the completion is still under way', async () => {
  const { builder, events } = await filled('begun');
  let finished = false;
  let begunBeforeFinished: boolean | undefined;
  const built = await builder
    .finish(undefined, () => {
      begunBeforeFinished ??= !finished;
    })
    .finally(() => {
      finished = true;
    });
  assert.equal(built.events, events);
  await new Promise((r) => setTimeout(r, 20)); // a call made only at the end would have come by now
  assert.equal(begunBeforeFinished, true);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('begun')),
    ['begun.sqlite'],
  );
});

test('a build cancelled before its completion begins still says so, and its finish rejects', async () => {
  const { builder } = await filled('cancelled');
  const signal = AbortSignal.abort();
  let told = 0;
  await assert.rejects(
    builder.finish(signal, () => told++),
    (e: Error & { code?: string }) => e.code === 'CANCELLED',
  );
  await new Promise((r) => setImmediate(r));
  assert.equal(told, 1);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('cancelled')),
    [],
  );
});
