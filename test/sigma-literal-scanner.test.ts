/**
 * The literal scanner of the rule set's plans (src/sigma/ruleset): it reports exactly the
 * literals a brute-force search finds, its arrays survive a cache's round trip, and arrays a
 * cache gives back are checked: damaged ones are refused (never a throw or an endless loop), and
 * a rule set builds those again with the same verdicts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deserialize, serialize } from 'node:v8';
import { prng } from '../fixtures/prng.js';
import { compileRuleSet, eventFromObject, loadRules, type ScannerData } from '../src/sigma/index.js';
import type { LiteralScanner } from '../src/sigma/ruleset/literal-scan.js';
import { ScanMemo } from '../src/sigma/ruleset/scan-memo.js';
import { buildScanner } from '../src/sigma/ruleset/scanner-build.js';
import { scannerFromData } from '../src/sigma/ruleset/scanner-data.js';

const LITERALS = ['cmd', 'cmd.exe', '\\cmd.exe', 'whoami', 'mi', 'ümlaut', 'ü', 'a', 'exe', ''];

function found(scanner: LiteralScanner, text: string, fold: boolean): number[] {
  const hits = new Set<number>();
  scanner.scan(text, { hit: (id) => hits.add(id) }, fold);
  return [...hits].sort((a, b) => a - b);
}

function bruteForce(literals: readonly string[], text: string): number[] {
  return literals.flatMap((l, id) => (l.length > 0 && text.includes(l) ? [id] : []));
}

function randomText(next: () => number): string {
  const alphabet = [
    'c',
    'm',
    'd',
    '.',
    'e',
    'x',
    'C',
    'M',
    'D',
    'E',
    '\\',
    'ü',
    'Ü',
    'w',
    'h',
    'o',
    'a',
    'i',
    ' ',
  ];
  return Array.from(
    { length: Math.floor(next() * 40) },
    () => alphabet[Math.floor(next() * alphabet.length)],
  ).join('');
}

test('the scanner reports exactly the literals a brute-force search finds, folded or not', () => {
  const scanner = buildScanner(LITERALS);
  const next = prng(7);
  for (let i = 0; i < 2000; i++) {
    const text = randomText(next);
    assert.deepEqual(found(scanner, text, false), bruteForce(LITERALS, text), text);
    assert.deepEqual(found(scanner, text, true), bruteForce(LITERALS, text.toLowerCase()), text);
  }
});

test('a scanner rebuilt from its arrays after a serialize round trip finds the same literals', () => {
  const built = buildScanner(LITERALS);
  const back = scannerFromData(deserialize(serialize(built.data)), LITERALS.length);
  assert.ok(back);
  const next = prng(11);
  for (let i = 0; i < 500; i++) {
    const text = randomText(next);
    assert.deepEqual(found(back, text, true), found(built, text, true));
  }
});

test('damaged arrays are refused: indexes out of range, endless chains, wrong types or counts', () => {
  const data = buildScanner(LITERALS).data;
  const copy = (): { -readonly [K in keyof ScannerData]: ScannerData[K] } => deserialize(serialize(data));
  const damaged: [string, (d: ReturnType<typeof copy>) => void][] = [
    ['another literal count', (d) => (d.literals = 3)],
    ['a table cell past the states', (d) => (d.table[5] = d.fail.length)],
    ['a column past the width', (d) => (d.columns[99] = d.width)],
    [
      'an output chain that loops',
      (d) => {
        const s = d.firstOut.findIndex((x) => x >= 0);
        d.output[d.firstOut[s]!] = d.firstOut[s]!;
      },
    ],
    [
      'a failure chain that loops',
      (d) => {
        d.fail[1] = 2;
        d.fail[2] = 1;
      },
    ],
    ['a literal id past the literals', (d) => (d.endIds[0] = 99)],
    ['decreasing end offsets', (d) => (d.endStart[1] = d.endIds.length + 1)],
    ['a non-ASCII transition to nowhere', (d) => (d.wide[2] = -5)],
    ['a table of doubles', (d) => ((d as { table: unknown }).table = Float64Array.from(d.table))],
    ['a short table', (d) => (d.table = d.table.slice(1))],
  ];
  for (const [what, damage] of damaged) {
    const d = copy();
    damage(d);
    assert.equal(scannerFromData(d, LITERALS.length), undefined, what);
  }
  assert.equal(scannerFromData(null, 1), undefined);
  assert.equal(scannerFromData('x', 1), undefined);
});

test("random damage to a scanner's arrays never throws and never hangs a scan", () => {
  const bytes = serialize(buildScanner(LITERALS).data);
  const next = prng(3);
  let accepted = 0;
  for (let i = 0; i < 3000; i++) {
    const b = Buffer.from(bytes);
    b[Math.floor(next() * b.length)] = Math.floor(next() * 256);
    let value: unknown;
    try {
      value = deserialize(b);
    } catch {
      continue;
    }
    const scanner = scannerFromData(value, LITERALS.length);
    if (scanner === undefined) continue;
    accepted++;
    scanner.scan('x \\CMD.EXE whoami ümlaut', { hit: () => {} }, true);
  }
  assert.ok(accepted > 0, 'some damage leaves a well-formed automaton');
});

test('a rule set uses the scanners it is given and builds a damaged one again, same verdicts', () => {
  const { rules } = loadRules(
    `title: t\nlogsource: {product: windows, category: process_creation}\ndetection:\n  sel:\n    CommandLine|contains: [whoami, 'net user']\n  condition: sel\n`,
    'r.yml',
  );
  const event = eventFromObject({
    Channel: 'Microsoft-Windows-Sysmon/Operational',
    EventID: 1,
    CommandLine: 'x WHOAMI /all',
  });
  const first = compileRuleSet({ rules });
  assert.equal(first.match(event).length, 1);
  const taken = first.takenScanners();
  assert.ok(taken.size > 0);
  const second = compileRuleSet({ rules, options: { knownScanners: taken } });
  assert.equal(second.match(event).length, 1);
  for (const [k, data] of second.takenScanners()) assert.equal(data, taken.get(k), 'the given arrays');
  const broken = new Map([...taken].map(([k, d]) => [k, { ...d, literals: d.literals + 1 }]));
  const third = compileRuleSet({ rules, options: { knownScanners: broken } });
  assert.equal(third.match(event).length, 1);
  for (const [k, data] of third.takenScanners()) assert.notEqual(data, broken.get(k), 'built again');
});

/** Counts the texts the scanner itself walks, beside what the memo serves. */
function countingScanner(literals: readonly string[]): { scanner: LiteralScanner; walked: () => number } {
  const scanner = buildScanner(literals);
  let walked = 0;
  const scan = scanner.scan.bind(scanner);
  scanner.scan = (text, sink, fold) => {
    if (fold) walked++; // not the scan again of a lowered non-ASCII text
    scan(text, sink, fold);
  };
  return { scanner, walked: () => walked };
}

const memoFound = (memo: ScanMemo, text: string): number[] => {
  const hits = new Set<number>();
  memo.scan(text, { hit: (id) => hits.add(id) });
  return [...hits].sort((a, b) => a - b);
};

test('the scan memo reports what a folded scan reports, and walks a repeated text once', () => {
  const { scanner, walked } = countingScanner(LITERALS);
  const memo = new ScanMemo(scanner);
  const next = prng(5);
  const texts = Array.from({ length: 40 }, () => randomText(next));
  for (let round = 0; round < 100; round++)
    for (const text of texts)
      assert.deepEqual(memoFound(memo, text), bruteForce(LITERALS, text.toLowerCase()));
  assert.ok(walked() <= new Set(texts).size, `${walked()} walks`);
});

test('texts that do not repeat are all scanned, and the memo then stops looking', () => {
  const { scanner, walked } = countingScanner(LITERALS);
  const memo = new ScanMemo(scanner);
  const next = prng(9);
  const n = 20_000;
  for (let i = 0; i < n; i++) {
    const text = `${randomText(next)} ${i}`;
    assert.deepEqual(memoFound(memo, text), bruteForce(LITERALS, text.toLowerCase()));
  }
  assert.equal(walked(), n);
  // Resting, a repeated text is walked each time.
  const before = walked();
  for (let i = 0; i < 10; i++) memoFound(memo, 'cmd.exe whoami');
  assert.equal(walked() - before, 10);
});
