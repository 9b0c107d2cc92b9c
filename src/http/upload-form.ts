/**
 * A multipart upload as a stream of files, parsed by busboy: each part of the repeated field
 * `files` becomes `{ name, data }` with `data` streaming that part's bytes. A part's bytes
 * must be read before the next part appears (busboy's back-pressure). Parts of other fields
 * are skipped. The whole request is bounded in size (413) and in time (408) from its first
 * byte; either aborts the form, and the pending read fails with that error.
 *
 * The form may be abandoned at any moment (a refused token, a bad name, a limit): busboy then
 * fails its parser and the file stream in flight ("Unexpected end of file/form"), and so does
 * a body that ends early. Those errors are expected, so the parser and every file stream get
 * their error listener when they appear; a reader still iterating a file sees the error
 * through its iterator. What becomes of the unread body is request-body.ts's.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { TaeError } from '../errors/index.js';
import type { UploadFile } from '../service/index.js';
import { mediaType } from './json-body.js';
import { startReading } from './request-body.js';
import { clientGone, payloadTooLarge, unreadableBody, uploadTimedOut } from './transport-errors.js';

const FIELD = 'files';
/** Parts per request (files and fields together), so a flood of tiny parts stops early. */
export const MAX_PARTS = 1000;
const FIELD_BYTES = 64 * 1024;
/** The most a part adds besides file bytes: headers (busboy reads 16 KiB), a field value, a boundary. */
export const PART_OVERHEAD_BYTES = 16 * 1024 + FIELD_BYTES + 1024;

type FormEvent =
  | { readonly kind: 'file'; readonly name: string; readonly stream: Readable }
  | { readonly kind: 'end' }
  | { readonly kind: 'error'; readonly details: string };

export interface UploadForm {
  /** The files in form order; read each file's data before asking for the next file. */
  readonly files: AsyncIterable<UploadFile>;
  /** Stops parsing and the clock (call once the answer is decided). */
  readonly close: () => void;
}

export interface UploadFormOptions {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/** For errors that are expected and reported elsewhere (see the header). */
const ignore = () => {};

/** `p`, or the abort reason if the form is aborted first. */
function unlessAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  p.catch(ignore); // once the abort has won, p's own failure (the form torn down) has no reader
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function* bytesOf(stream: Readable, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  for (;;) {
    let next: IteratorResult<Buffer>;
    try {
      next = await unlessAborted(it.next(), signal);
    } catch (e) {
      throw signal.aborted ? signal.reason : unreadableBody('upload', (e as Error).message);
    }
    if (next.done) return;
    yield next.value;
  }
}

/** Throws the 400 for a request that is not a multipart form (busboy's own check comes after). */
export function openUploadForm(req: IncomingMessage, options: UploadFormOptions): UploadForm {
  if (mediaType(req.headers['content-type']) !== 'multipart/form-data') {
    throw unreadableBody('upload', 'Content-Type must be multipart/form-data');
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: {
        files: MAX_PARTS,
        parts: MAX_PARTS,
        fields: MAX_PARTS,
        fieldSize: FIELD_BYTES,
        headerPairs: 100,
      },
    });
  } catch (e) {
    throw unreadableBody('upload', (e as Error).message);
  }
  const controller = new AbortController();
  const abort = (e: TaeError) => controller.abort(e);
  const timer = setTimeout(() => abort(uploadTimedOut()), options.timeoutMs);
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received > options.maxBytes) abort(payloadTooLarge('upload'));
  };

  const queue: FormEvent[] = [];
  let wake: (() => void) | null = null;
  const push = (event: FormEvent) => {
    queue.push(event);
    wake?.();
  };
  const tooMany = () => push({ kind: 'error', details: `more than ${MAX_PARTS} parts` });
  parser
    .on('file', (field, stream, info) => {
      stream.on('error', ignore);
      if (field === FIELD) push({ kind: 'file', name: info.filename ?? '', stream });
      else stream.resume();
    })
    .on('filesLimit', tooMany)
    .on('partsLimit', tooMany)
    .on('fieldsLimit', tooMany)
    .on('error', (e) => push({ kind: 'error', details: (e as Error).message }))
    .on('close', () => push({ kind: 'end' }));
  // A client that goes away mid-form: stop now rather than when the clock runs out.
  const gone = () => {
    if (!req.complete) abort(clientGone('upload'));
  };
  req.on('close', gone);
  // The body is read from the engine's first ask for a file, after it has checked the caller:
  // a refused token gets its answer before any 100 Continue, and the client keeps its body.
  let started = false;
  const start = () => {
    started = true;
    startReading(req);
    req.on('data', count);
    req.pipe(parser);
  };

  const nextEvent = async (): Promise<FormEvent> => {
    if (!started) start();
    while (queue.length === 0) await unlessAborted(new Promise<void>((r) => (wake = r)), controller.signal);
    wake = null;
    return queue.shift()!;
  };

  async function* files(): AsyncGenerator<UploadFile> {
    for (;;) {
      const event = await nextEvent();
      switch (event.kind) {
        case 'end':
          clearTimeout(timer);
          return;
        case 'error':
          throw unreadableBody('upload', event.details);
        case 'file':
          yield { name: event.name, data: bytesOf(event.stream, controller.signal) };
      }
    }
  }

  return {
    files: files(),
    close: () => {
      clearTimeout(timer);
      req.off('data', count).off('close', gone);
      req.unpipe(parser);
      parser.destroy(); // its error, and its file stream's, reach the listeners above
      queue.length = 0;
    },
  };
}
