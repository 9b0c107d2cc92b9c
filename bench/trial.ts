/**
 * `npm run trial [-- --kill-seconds N --load-seconds N --clients N --seed S]`: the hostile
 * operator's trial of a real `tae serve` (built: `npm run build` first). First the kill -9
 * campaign (crash-campaign.ts), then the load run (load-campaign.ts), each on a fresh data
 * directory; one JSON line each. Exits 1 when an acknowledged file or job was lost or came
 * back deleted, a stored file was corrupt, a job never settled, a search changed, a 5xx was
 * answered, or files were left behind. Nothing needs the corpus: the logs come from fixtures/.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { randomEvents } from '../fixtures/large-events.js';
import { prng } from '../fixtures/prng.js';
import { benchArgs, numberArg } from './args.js';
import { crashCampaign } from './crash-campaign.js';
import { loadCampaign } from './load-campaign.js';
import type { Auth } from './service-client.js';

const USAGE = `usage: npm run trial -- [--kill-seconds N] [--load-seconds N] [--clients N] [--seed S]
  --kill-seconds N   length of the kill -9 campaign (default 180; 0 skips it)
  --load-seconds N   length of the load run (default 120; 0 skips it)
  --clients N        concurrent clients of the load run (default 30)
  --seed S           seed of the random choices and generated logs (default 1)`;

function options() {
  const { values } = benchArgs(USAGE, {
    options: {
      'kill-seconds': { type: 'string', default: '180' },
      'load-seconds': { type: 'string', default: '120' },
      clients: { type: 'string', default: '30' },
      seed: { type: 'string', default: '1' },
    },
  });
  const n = (flag: string, text: string) => numberArg(flag, text, { integer: true });
  return {
    kill: n('--kill-seconds', values['kill-seconds']),
    load: n('--load-seconds', values['load-seconds']),
    clients: n('--clients', values.clients),
    seed: n('--seed', values.seed),
  };
}

const CLI = join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'main.js');
const KEY = 'trial key, sixteen or more characters';

/** Two owners with tokens and keys of their own; anonymous clients besides them. */
function tokens(dataDir: string): Auth[] {
  const r = spawnSync(process.execPath, [CLI, 'tokens', 'create', '--data', dataDir, '--json'], {
    encoding: 'utf8',
  });
  const s = spawnSync(process.execPath, [CLI, 'tokens', 'create', '--data', dataDir, '--json'], {
    encoding: 'utf8',
  });
  if (r.status !== 0 || s.status !== 0) throw new Error(`tae tokens create failed: ${r.stderr}${s.stderr}`);
  return [
    { token: JSON.parse(r.stdout)[0].token, encKey: KEY },
    { token: JSON.parse(s.stdout)[0].token, encKey: `another ${KEY}` },
  ];
}

function logs(seed: number): Uint8Array[] {
  const events = randomEvents(seed);
  return [50, 400, 3_000, 20_000].map((n) => writeEvtx(Array.from({ length: n }, () => events.next().value)));
}

const o = options();
const generated = logs(o.seed);
let failed = false;
const fail = (why: string) => {
  failed = true;
  process.stderr.write(`trial: ${why}\n`);
};

if (o.kill > 0) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tae-trial-kill-'));
  const r = await crashCampaign({
    dataDir,
    seconds: o.kill,
    pick: prng(o.seed),
    logs: generated,
    owners: tokens(dataDir),
  });
  process.stdout.write(`${JSON.stringify({ campaign: 'kill', ...r })}\n`);
  for (const k of [
    'filesLost',
    'deletedBack',
    'jobsLost',
    'jobsBack',
    'searchesDiffer',
    'jobsStuck',
    'orphanBlobs',
  ] as const)
    if (r[k] > 0) fail(`${k}: ${r[k]}`);
  if (r.filesCorrupt.length + r.filesMissingFromStore.length > 0) fail('stored files corrupt or missing');
  if (r.leftovers.length > 0) fail(`left behind: ${r.leftovers.join(', ')}`);
  if ((r.tally['5xx'] ?? 0) > 0) fail(`5xx answers: ${r.serverErrors.join(' | ')}`);
  if (!failed) rmSync(dataDir, { recursive: true, force: true });
}

if (o.load > 0) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tae-trial-load-'));
  const r = await loadCampaign({
    dataDir,
    seconds: o.load,
    clients: o.clients,
    logs: generated.slice(0, 3),
    owners: tokens(dataDir),
  });
  process.stdout.write(`${JSON.stringify({ campaign: 'load', ...r })}\n`);
  if ((r.tally['5xx'] ?? 0) + (r.tally.none ?? 0) + r.jobsUnsettled > 0)
    fail(`load: ${r.tally['5xx'] ?? 0} × 5xx, ${r.tally.none ?? 0} unanswered, ${r.jobsUnsettled} unsettled`);
  rmSync(dataDir, { recursive: true, force: true });
}

process.exit(failed ? 1 : 0);
