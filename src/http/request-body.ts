/**
 * What becomes of a request body the answer did not wait for. An answer can be decided before
 * the body was read whole (a refused token or key, a size limit, a timeout, a broken form);
 * this is the one place that then settles the rest, whatever refused it:
 * - `drain`: a body declared small enough is read to its end and dropped after the answer, so
 *   a client still sending reads its answer and the connection stays usable;
 * - `close`: any other (too large, chunked, or one that stopped arriving: a 408) is not read:
 *   the answer says `Connection: close`, and Node closes the connection once it is sent.
 * Either way the body is bounded in time: a drain that does not end within DRAIN_MS closes too.
 * The readers of the body (json-body.ts, upload-form.ts) stop reading and hand over here; they
 * own their parsers' error events (an abandoned form's streams fail by design).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

const MiB = 1024 ** 2;
/** Largest unread body drained rather than cut: a few seconds on a slow link, nothing in memory. */
const DRAIN_BYTES = 16 * MiB;
const DRAIN_MS = 10_000;

const REQUEST_TIMEOUT = 408;

type BodyFate = 'done' | 'drain' | 'close';

function fateOf(req: IncomingMessage, status: number): BodyFate {
  if (req.complete || req.destroyed) return 'done';
  if (status === REQUEST_TIMEOUT || req.headers['transfer-encoding'] !== undefined) return 'close';
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared === 0) return 'done';
  return Number.isSafeInteger(declared) && declared <= DRAIN_BYTES ? 'drain' : 'close';
}

/**
 * Settles the unread rest of `req` once `res` (answering `status`) is sent; returns the headers
 * the answer must carry (Connection: close when the rest will not be read). Call before the head.
 */
export function settleBody(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
): Readonly<Record<string, string>> {
  const fate = fateOf(req, status);
  if (fate === 'done') return {};
  res.once('finish', () => {
    // Flowing with no reader: bytes are dropped as they come (`close`: until Node cuts the socket).
    req.resume();
    if (fate === 'drain' && !req.complete) {
      const cut = setTimeout(() => req.socket?.destroy(), DRAIN_MS).unref();
      req.once('end', () => clearTimeout(cut)).once('close', () => clearTimeout(cut));
    }
  });
  return fate === 'close' ? { Connection: 'close' } : {};
}

/** No answer is due (the client is gone): drop the connection and whatever it still holds. */
export function abandonBody(req: IncomingMessage): void {
  req.socket?.destroy();
}
