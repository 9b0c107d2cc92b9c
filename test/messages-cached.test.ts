/**
 * formatTime and describerOf remember the last minute and each provider's lower case: their
 * answers must stay those of the plain computations, in any order of calls.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prng } from '../fixtures/prng.js';
import { type Descriptions, describerOf, descriptionKey, formatTime } from '../src/messages/index.js';

/** formatTime as it was computed before it remembered minutes. */
function plainFormatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '-';
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

test('formatTime gives the plain UTC text for times in runs, jumps, edges and non-times', () => {
  const random = prng(15);
  const times: (number | null | undefined)[] = [null, undefined, Number.NaN, Infinity, -Infinity];
  for (const edge of [0, -1, -0.5, 0.5, 59_999, 60_000, -60_000, -60_001, 8.64e15, -8.64e15, 8.64e15 + 1])
    times.push(edge, edge - 0.25, edge + 0.75);
  // Runs inside one minute (the cache's case), across minute ends, and far jumps back and forth.
  let t = Date.UTC(2023, 0, 1, 23, 59, 58, 900);
  for (let i = 0; i < 2000; i++) {
    t += Math.floor(random() * 900);
    times.push(t, t + 0.9999);
    if (i % 97 === 0)
      times.push(Date.UTC(1601, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999), -62_198_755_200_000);
    if (i % 211 === 0) times.push((random() - 0.5) * 2 * 8.64e15);
  }
  for (const ms of times) assert.equal(formatTime(ms), plainFormatTime(ms), `formatTime(${ms})`);
});

test('a describer finds each description whatever the provider case, the later entry of a key winning', () => {
  const entries: Descriptions = [
    [descriptionKey(4624, 'Microsoft-Windows-Security-Auditing'), 'An account was successfully logged on.'],
    [descriptionKey(1, 'Microsoft-Windows-Sysmon'), 'Process Create: %1'],
    [descriptionKey('1', 'microsoft-windows-sysmon'), 'Process Create (later): %1'],
    [descriptionKey(7045, 'Service Control Manager'), 'A service was installed.'],
  ];
  const describe = describerOf(entries);
  const plain = new Map(entries);
  const asks: [number, string][] = [
    [4624, 'Microsoft-Windows-Security-Auditing'],
    [4624, 'MICROSOFT-WINDOWS-SECURITY-AUDITING'],
    [4625, 'Microsoft-Windows-Security-Auditing'],
    [1, 'Microsoft-Windows-Sysmon'],
    [1, 'microsoft-windows-SYSMON'],
    [7045, 'Service Control Manager'],
    [7045, 'Service Control Manager\u0000'],
    [0, ''],
    [-1, 'Unknown'],
  ];
  for (const [id, provider] of [...asks, ...asks.reverse()])
    assert.equal(describe(id, provider), plain.get(descriptionKey(id, provider)), `${id} ${provider}`);
  assert.equal(describe(1, 'Microsoft-Windows-Sysmon'), 'Process Create (later): %1');
});
