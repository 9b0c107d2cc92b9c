/**
 * `POST /upload` (and `/analysis/upload`): the multipart form, streamed into `Engine.upload`
 * file by file as the parts arrive; nothing is held in memory. The request is bounded in size
 * (`limits.uploadBytes`) and time (`limits.uploadTimeoutMs`) here, and each file by the engine.
 */
import type { IncomingMessage } from 'node:http';
import type { Auth, Engine, UploadResponse } from '../service/index.js';
import { declaredTooLarge } from './json-body.js';
import type { HttpLimits } from './options.js';
import { payloadTooLarge } from './transport-errors.js';
import { openUploadForm } from './upload-form.js';

export async function handleUpload(
  engine: Engine,
  req: IncomingMessage,
  auth: Auth,
  limits: HttpLimits,
): Promise<UploadResponse> {
  if (declaredTooLarge(req, limits.uploadBytes)) throw payloadTooLarge('upload');
  const form = openUploadForm(req, { maxBytes: limits.uploadBytes, timeoutMs: limits.uploadTimeoutMs });
  try {
    return await engine.upload({ files: form.files }, auth);
  } finally {
    form.close();
  }
}
