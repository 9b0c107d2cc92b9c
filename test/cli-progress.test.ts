/**
 * Progress on stderr (src/cli/progress.ts) for analyze, parse, sigma and yara: on a terminal
 * (a pseudo-terminal from util-linux `script`), a self-rewriting line with files, records,
 * bytes and ETA, then a closing line with the rate and peak memory; nothing with `-q`, nothing
 * in a pipe, nothing for a run under the one-second threshold. TAE_PROGRESS_AFTER_MS=0 lets
 * these small runs pass the threshold.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { type EventDescription, writeEvtx } from '../fixtures/evtx-writer/index.js';
import { CLI, ensureBuilt, runTae } from './helpers/cli-binary.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-progress-'));
mkdirSync(join(dir, 'logs'));
/** 1,500 process creations a file, so that sigma (which reports every 4,096 events) reports too. */
const events = (host: string): EventDescription[] =>
  Array.from({ length: 1500 }, (_, i) => ({
    provider: 'Microsoft-Windows-Sysmon',
    channel: 'Microsoft-Windows-Sysmon/Operational',
    computer: host,
    time: new Date(Date.UTC(2026, 2, 1, 10) + i * 1000).toISOString(),
    eventId: 1,
    eventData: { Image: `C:\\Tools\\tool${i}.exe`, CommandLine: `run ${i}` },
  }));
for (const n of [1, 2, 3]) writeFileSync(join(dir, 'logs', `log${n}.evtx`), writeEvtx(events(`WS-0${n}`)));
const SIZE = `${((statSync(join(dir, 'logs', 'log1.evtx')).size * 3) / 1048576).toFixed(1)} MiB`;
const ENV = {
  ...process.env,
  TAE_HOME: join(dir, '.tae-home'),
  TAE_CACHE_DIR: join(dir, '.tae-cache'),
  TAE_RULE_PACKS: '',
};
const hasScript = spawnSync('script', ['--version']).status === 0;

/** stderr of `tae ARGS` on a pseudo-terminal (stdout to /dev/null), as written. */
function onTerminal(args: readonly string[], env: Record<string, string> = {}): string {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
  const r = spawnSync('script', ['-qfec', `${command} > /dev/null`, '/dev/null'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...ENV, ...env },
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const COMMANDS = [
  ['analyze', 'events/s'],
  ['parse', 'events/s'],
  ['sigma', 'events/s'],
  ['yara', 'files/s'],
] as const;

before(ensureBuilt);

test('on a terminal each command shows files, records, bytes and ETA, then rate and peak memory', {
  skip: hasScript ? false : 'no script(1)',
}, () => {
  for (const [command, rate] of COMMANDS) {
    const out = onTerminal([command, 'logs'], { TAE_PROGRESS_AFTER_MS: '0' });
    const lines = out.split(/\r\n|\r|\n/).map((l) => l.replace(/^\x1b\[K/, ''));
    const records = command === 'yara' ? '' : ', [\\d,]+ records';
    const progress = new RegExp(
      `^${command}: \\d/3 files${records}, [\\d.]+ [KM]?i?B of ${SIZE}(, ETA \\d+ s)?$`,
    );
    assert.ok(
      lines.some((l) => progress.test(l)),
      `${command} progress line in ${JSON.stringify(out)}`,
    );
    assert.match(out, /\r\x1b\[K/, 'the line rewrites itself');
    const closing = command === 'yara' ? `3 files, ${SIZE}` : `3 files, 4,500 records, ${SIZE}`;
    assert.ok(
      lines.some((l) =>
        new RegExp(`^${command}: ${closing} in \\d+\\.\\d s, [\\d,]+ ${rate}, peak memory [\\d.]+ MiB$`).test(
          l,
        ),
      ),
      `${command} closing line in ${JSON.stringify(out)}`,
    );
  }
});

test('-q, a run under a second, and a pipe print no progress', {
  skip: hasScript ? false : 'no script(1)',
}, () => {
  assert.equal(onTerminal(['analyze', '-q', 'logs'], { TAE_PROGRESS_AFTER_MS: '0' }), '');
  assert.equal(onTerminal(['parse', '-q', 'logs'], { TAE_PROGRESS_AFTER_MS: '0' }), '');
  assert.equal(onTerminal(['parse', '--summary', 'logs'], { TAE_PROGRESS_AFTER_MS: '60000' }), '');
  assert.equal(onTerminal(['sigma', '-q', 'logs'], { TAE_PROGRESS_AFTER_MS: '0' }), '');
  assert.equal(onTerminal(['yara', '-q', 'logs'], { TAE_PROGRESS_AFTER_MS: '0' }), '');
  for (const [command] of COMMANDS) {
    const args = command === 'parse' ? ['parse', '--summary', 'logs'] : [command, 'logs'];
    const r = runTae(dir, args, { TAE_PROGRESS_AFTER_MS: '0' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '', `${command} in a pipe`);
  }
});
