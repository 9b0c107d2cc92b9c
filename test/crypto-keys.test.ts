/** The encryption-key format, owner-key checks, sealed values and segment layout. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import {
  deriveOwnerKey,
  isUuidV4,
  isValidEncKey,
  keyCheck,
  keyCheckMatches,
  newDataKey,
  newId,
  newKeySalt,
  OwnerKeyCache,
  open,
  openSealedStream,
  SegmentSealer,
  seal,
  sealedSize,
} from '../src/crypto/index.js';

test('an encryption key is 16 to 512 printable ASCII characters without outer spaces', () => {
  for (const ok of [
    'a'.repeat(16),
    'correct horse battery staple',
    'x'.repeat(512),
    '0123456789abcdef'.repeat(4),
  ]) {
    assert.ok(isValidEncKey(ok), ok);
  }
  for (const bad of [
    'a'.repeat(15),
    'x'.repeat(513),
    ' leading space key',
    'trailing space key ',
    'tab\tinside key 1',
    'ümlaut-key-0123456',
    42,
  ]) {
    assert.ok(!isValidEncKey(bad), String(bad));
  }
});

test('the owner key depends on key and salt; its check tells the right key from a wrong one', async () => {
  const salt = newKeySalt();
  const k1 = await deriveOwnerKey('the right key, yes', salt);
  assert.deepEqual(await deriveOwnerKey('the right key, yes', salt), k1);
  assert.notDeepEqual(await deriveOwnerKey('the right key, yes', newKeySalt()), k1);
  const check = keyCheck(k1);
  assert.ok(keyCheckMatches(k1, check));
  assert.ok(!keyCheckMatches(await deriveOwnerKey('the wrong key, no', salt), check));
  const cache = new OwnerKeyCache(1);
  assert.deepEqual(await cache.derive('the right key, yes', salt), k1);
});

test('a sealed value opens only with its key and its label', () => {
  const key = newDataKey();
  const sealed = seal(key, Buffer.from('secret'), 'job-result:1');
  assert.equal(open(key, sealed, 'job-result:1').toString(), 'secret');
  assert.throws(() => open(newDataKey(), sealed, 'job-result:1'), { code: 'FORBIDDEN' });
  assert.throws(() => open(key, sealed, 'job-result:2'), { code: 'FORBIDDEN' });
  assert.throws(() => open(key, sealed.subarray(0, 10), 'job-result:1'), { code: 'FORBIDDEN' });
});

test('segment sealing round-trips every size around segment boundaries, as sealedSize predicts', async () => {
  const key = newDataKey();
  for (const n of [0, 1, 999, 1000, 1001, 2000, 2001, 4567]) {
    const plain = randomBytes(n);
    const sealer = new SegmentSealer(key, 'file:x', 1000);
    const parts = [sealer.header()];
    for (let at = 0; at < n || at === 0; at += 300) {
      parts.push(...sealer.push(plain.subarray(at, at + 300)));
      if (n === 0) break;
    }
    parts.push(sealer.finish());
    const sealed = Buffer.concat(parts);
    assert.equal(sealed.length, sealedSize(n, 1000), `size ${n}`);
    const out = await openSealedStream(
      key,
      'file:x',
      n,
      (async function* () {
        yield sealed;
      })(),
    );
    assert.deepEqual(out, plain);
  }
});

test('ids are random UUID v4', () => {
  const ids = new Set(Array.from({ length: 100 }, newId));
  assert.equal(ids.size, 100);
  assert.ok([...ids].every(isUuidV4));
  assert.ok(!isUuidV4('7d444840-9dc0-11d1-b245-5ffdce74fad2'), 'a v1 UUID is not v4');
});
