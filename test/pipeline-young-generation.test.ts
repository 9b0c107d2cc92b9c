import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DECODE_WORKER_YOUNG_MB } from '../src/parse/index.js';
import { PIPELINE_WORKER_YOUNG_MB, pipelineYoungMb } from '../src/pipeline/stage.js';

test('pipeline workers get a larger young generation on few cores, and the pool never more than 32 MiB beyond decode workers in all', () => {
  assert.equal(pipelineYoungMb(1), PIPELINE_WORKER_YOUNG_MB);
  assert.equal(pipelineYoungMb(2), PIPELINE_WORKER_YOUNG_MB);
  assert.equal(pipelineYoungMb(8), DECODE_WORKER_YOUNG_MB);
  for (let threads = 1; threads <= 64; threads++) {
    const each = pipelineYoungMb(threads);
    assert.ok(Number.isInteger(each) && each >= DECODE_WORKER_YOUNG_MB, `${threads}: ${each}`);
    assert.ok(threads * (each - DECODE_WORKER_YOUNG_MB) <= 32, `${threads} workers: ${each} MiB each`);
  }
});
