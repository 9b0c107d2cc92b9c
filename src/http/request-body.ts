/**
 * What becomes of a request body the answer did not wait for. An answer can be decided before
 * the body was read whole (a refused token or key, a size limit, a timeout, a broken form);
 * this is the one place that then settles the rest, whatever refused it:
 * - `drain`: a body declared small enough is read to its end and dropped after the answer, so
 *   the connection stays usable (cut if it has not ended within DRAIN_MS);
 * - `linger`: any other (too large, chunked, stalled: a 408, or awaiting a 100 Continue that was
 *   never sent) ends the connection, but not at once. Closing a socket with unread bytes makes
 *   the kernel answer with a reset, and a client still sending (curl, undici, and above all
 *   Python's http.client, which sends its whole body before it reads) then loses the answer.
 *   So the whole answer is written (`Connection: close`), the rest of the body is read and
 *   dropped, and the answer is ended (which closes) when the body ends, the client leaves, no
 *   byte came for LINGER_IDLE_MS (HELD_IDLE_MS before a first one, after a held 100 Continue),
 *   or after LINGER_MS at most, as Apache's lingering close does.
 * Neither keeps a byte in memory. The readers of the body (json-body.ts, upload-form.ts) call
 * `startReading` before their first read, stop reading when they refuse, and hand over here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_LIMITS } from '../service/index.js';

const MiB = 1024 ** 2;
/** Largest unread body drained rather than cut: a few seconds on a slow link, nothing in memory. */
const DRAIN_BYTES = 16 * MiB;
const DRAIN_MS = 10_000;
/** A refused body may take as long to finish arriving as an accepted upload may take. */
const LINGER_MS = DEFAULT_LIMITS.uploadTimeoutMs;
const LINGER_IDLE_MS = 2_000;
/**
 * A client that waited for its 100 Continue and got a final answer instead sends nothing more;
 * one that ignores Expect (Python's http.client) sends its body right behind its head.
 */
const HELD_IDLE_MS = 1_000;

const REQUEST_TIMEOUT = 408;

type BodyFate = 'done' | 'drain' | 'linger';

/** Requests whose client waits for a 100 Continue (see `holdContinue`), with their answer. */
const continueHeld = new WeakMap<IncomingMessage, ServerResponse>();

/**
 * For a server's 'checkContinue' event: Node leaves the 100 Continue to the handler, and it goes
 * out only when a reader starts on the body, so a request refused before that (a token, a
 * declared size) is answered without the client sending its body at all.
 */
export function holdContinue(req: IncomingMessage, res: ServerResponse): void {
  continueHeld.set(req, res);
}

/** Call before reading the body: sends the 100 Continue its client may be waiting for. */
export function startReading(req: IncomingMessage): void {
  const res = continueHeld.get(req);
  if (res === undefined) return;
  continueHeld.delete(req);
  if (!res.headersSent) res.writeContinue();
}

function fateOf(req: IncomingMessage, status: number): BodyFate {
  if (req.complete || req.destroyed) return 'done';
  const chunked = req.headers['transfer-encoding'] !== undefined;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (!chunked && declared === 0) return 'done';
  // Without its 100 Continue the client may never send the body, so the connection cannot wait
  // for it (Node itself then answers `Connection: close`); a client that sends anyway is read.
  if (continueHeld.has(req) || status === REQUEST_TIMEOUT || chunked) return 'linger';
  return Number.isSafeInteger(declared) && declared <= DRAIN_BYTES ? 'drain' : 'linger';
}

/** Headers the answer to `req` must carry, given what becomes of its unread body. */
export function bodyHeaders(req: IncomingMessage, status: number): Readonly<Record<string, string>> {
  return fateOf(req, status) === 'linger' ? { Connection: 'close' } : {};
}

/** Writes the whole answer `bytes` (its head already written) and settles the unread body. */
export function endAnswer(req: IncomingMessage, res: ServerResponse, status: number, bytes: Buffer): void {
  const fate = fateOf(req, status);
  const held = continueHeld.delete(req);
  if (fate === 'linger') {
    res.write(bytes);
    linger(req, res, held ? HELD_IDLE_MS : LINGER_IDLE_MS);
    return;
  }
  res.end(bytes);
  if (fate === 'drain') {
    // Flowing with no reader: bytes are dropped as they come.
    req.resume();
    const cut = setTimeout(() => req.socket?.destroy(), DRAIN_MS).unref();
    req.once('end', () => clearTimeout(cut)).once('close', () => clearTimeout(cut));
  }
}

/** Reads and drops the rest of `req`, then ends `res` (see the header); `quietMs` until a first byte. */
function linger(req: IncomingMessage, res: ServerResponse, quietMs: number): void {
  const socket = req.socket;
  const stop = () => {
    clearTimeout(cap);
    clearTimeout(idle);
    req.off('data', onData).off('end', stop);
    socket.off('close', stop);
    res.end();
  };
  const cap = setTimeout(stop, LINGER_MS).unref();
  let idle = setTimeout(stop, quietMs).unref();
  const onData = () => {
    clearTimeout(idle);
    idle = setTimeout(stop, LINGER_IDLE_MS).unref();
  };
  req.on('data', onData).once('end', stop);
  socket.once('close', stop);
  req.resume();
}

/** No answer is due (the client is gone): drop the connection and whatever it still holds. */
export function abandonBody(req: IncomingMessage): void {
  req.socket?.destroy();
}
