/** Pool worker: decodes one transferred chunk. A bug surfaces as a diagnostic, never as a lost file. */
import { type DecodedChunk, type DecodeTask, decodeChunkTo } from '../evtx/index.js';

export interface DecodeWorkerTask extends DecodeTask {
  readonly bytes: ArrayBuffer;
  readonly byteLength: number;
}

export default function decodeWorker(task: DecodeWorkerTask): DecodedChunk {
  return decodeSafely(new Uint8Array(task.bytes, 0, task.byteLength), task);
}

export function decodeSafely(bytes: Uint8Array, task: DecodeTask): DecodedChunk {
  try {
    return decodeChunkTo(bytes, task);
  } catch (e) {
    return {
      chunkIndex: task.chunkIndex,
      records: [],
      diagnostics: [
        {
          code: 'record.bad_binxml',
          message: `chunk could not be decoded: ${(e as Error).message}`,
          chunk: task.chunkIndex,
          offset: task.fileOffset,
          severity: 'error',
        },
      ],
    };
  }
}
