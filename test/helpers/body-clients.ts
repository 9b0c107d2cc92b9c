/**
 * One request body from a file, sent by the clients people use: Node's fetch (undici), node:http
 * (for `Expect: 100-continue`, which fetch refuses to send), curl and Python `requests`, each
 * with a Content-Length, chunked, or with `Expect: 100-continue`. Each reports what its user
 * would see: the answer, or how the client failed. curl and Python run as child processes
 * (asynchronously: an in-process server must keep serving meanwhile).
 */
import { execFile, execFileSync } from 'node:child_process';
import { createReadStream, openAsBlob, statSync } from 'node:fs';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

export type BodyMode = 'length' | 'chunked' | 'expect';
export type Client = 'fetch' | 'node:http' | 'curl' | 'python';

/** The modes each client is tried with (fetch refuses an Expect header: UND_ERR_NOT_SUPPORTED). */
export const CLIENT_MODES: Readonly<Record<Client, readonly BodyMode[]>> = {
  fetch: ['length', 'chunked'],
  'node:http': ['expect'],
  curl: ['length', 'chunked', 'expect'],
  python: ['length', 'chunked', 'expect'],
};

export interface Body {
  readonly url: string;
  readonly file: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly mode: BodyMode;
  /** Send at about this many bytes a second (chunked only for fetch and Python); default at once. */
  readonly bytesPerSecond?: number;
}

/** What the client's user sees: an answer (failure null), or the client's failure. */
export interface Seen {
  readonly status: number | null;
  readonly text: string;
  readonly failure: string | null;
}

const failed = (failure: string): Seen => ({ status: null, text: '', failure });

/** Why a client cannot run here, or null. */
export function unavailable(client: Client): string | null {
  const probe = (cmd: string, args: string[]) => {
    try {
      execFileSync(cmd, args, { stdio: 'ignore' });
      return null;
    } catch {
      return `${cmd} (${args.join(' ')}) is not available`;
    }
  };
  if (client === 'curl') return probe('curl', ['--version']);
  if (client === 'python') return probe('python3', ['-c', 'import requests']);
  return null;
}

export function send(client: Client, body: Body): Promise<Seen> {
  switch (client) {
    case 'fetch':
      return viaFetch(body);
    case 'node:http':
      return viaNodeHttp(body);
    case 'curl':
      return viaCurl(body);
    case 'python':
      return viaPython(body);
  }
}

async function* paced(file: string, bytesPerSecond: number | undefined): AsyncGenerator<Buffer> {
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
    if (bytesPerSecond !== undefined) await sleep((1000 * chunk.length) / bytesPerSecond);
    yield chunk as Buffer;
  }
}

async function viaFetch(b: Body): Promise<Seen> {
  try {
    const body =
      b.mode === 'length'
        ? await openAsBlob(b.file)
        : Readable.toWeb(Readable.from(paced(b.file, b.bytesPerSecond)));
    const res = await fetch(b.url, {
      method: 'POST',
      headers: b.headers,
      body,
      duplex: 'half',
    } as RequestInit);
    return { status: res.status, text: await res.text(), failure: null };
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return failed(`${(e as Error).message}: ${cause?.code ?? cause?.message}`);
  }
}

/** Sends the body only on 100 Continue, as RFC 9110 asks of a client that sent Expect. */
function viaNodeHttp(b: Body): Promise<Seen> {
  return new Promise((resolve) => {
    const headers = {
      ...b.headers,
      Expect: '100-continue',
      'Content-Length': String(statSync(b.file).size),
    };
    const req = request(b.url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => {
        resolve({ status: res.statusCode ?? null, text, failure: null });
        req.destroy();
      });
    });
    req.on('continue', () => createReadStream(b.file).pipe(req));
    req.on('error', (e: NodeJS.ErrnoException) => resolve(failed(e.code ?? e.message)));
  });
}

/** Runs a command to its end; a failure is its exit status and stderr. */
function run(cmd: string, args: string[]): Promise<{ out: string; failure: string | null }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 20 }, (e, stdout, stderr) =>
      resolve({ out: stdout, failure: e === null ? null : `${cmd} ${e.code}: ${stderr.trim()}` }),
    );
  });
}

async function viaCurl(b: Body): Promise<Seen> {
  const args = ['-sS', '-X', 'POST', '-T', b.file, '-o', '-', '-w', '\n%{http_code}'];
  for (const [k, v] of Object.entries(b.headers)) args.push('-H', `${k}: ${v}`);
  // curl sends Expect by itself for bodies over 1 MiB: say it in every mode.
  args.push('-H', b.mode === 'expect' ? 'Expect: 100-continue' : 'Expect:');
  if (b.mode === 'chunked') args.push('-H', 'Transfer-Encoding: chunked');
  if (b.bytesPerSecond !== undefined) args.push('--limit-rate', String(b.bytesPerSecond));
  const { out, failure } = await run('curl', [...args, b.url]);
  if (failure !== null) return failed(failure);
  const at = out.lastIndexOf('\n');
  return { status: Number(out.slice(at + 1)), text: out.slice(0, at), failure: null };
}

/** requests writes the whole body before it reads the answer; Expect is only a header to it. */
const PYTHON = `
import json, sys, time, requests
url, path, mode, headers, rate = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), int(sys.argv[5])
if mode == 'expect': headers['Expect'] = '100-continue'
def chunks():
    with open(path, 'rb') as f:
        while (b := f.read(1 << 16)):
            if rate: time.sleep(len(b) / rate)
            yield b
try:
    with open(path, 'rb') as f:
        r = requests.post(url, data=chunks() if mode == 'chunked' else f, headers=headers, timeout=60)
    sys.stdout.write(f'{r.status_code}\\n{r.text}')
except Exception as e:
    sys.stdout.write(f'failed\\n{type(e).__name__}: {e}')
`;

async function viaPython(b: Body): Promise<Seen> {
  const args = [b.url, b.file, b.mode, JSON.stringify(b.headers), String(b.bytesPerSecond ?? 0)];
  const { out, failure } = await run('python3', ['-c', PYTHON, ...args]);
  if (failure !== null) return failed(failure);
  const at = out.indexOf('\n');
  const head = out.slice(0, at);
  if (head === 'failed') return failed(out.slice(at + 1));
  return { status: Number(head), text: out.slice(at + 1), failure: null };
}
