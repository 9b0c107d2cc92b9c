/**
 * Upload, list and delete files. An upload with a token is private: each file gets a random
 * data key, sealed under the caller's owner key, and is encrypted as it streams in. Without a
 * token the file is public and stored as is. The files of one upload appear together or not
 * at all: contents are made durable first, then all rows commit in one transaction.
 */
import { formatTime } from '../analysis/index.js';
import { AAD, newDataKey, newId, seal } from '../crypto/index.js';
import { isNoSpace, isTaeError } from '../errors/index.js';
import { type BlobWriter, type FileRow, writeContent } from '../store/index.js';
import type { ServiceContext } from './context.js';
import { type ErrorSlug, endpointError } from './error-table.js';
import { removeFiles } from './removal.js';
import type {
  Auth,
  DeleteRequest,
  FileListResponse,
  MessageResponse,
  UploadFile,
  UploadRequest,
  UploadResponse,
} from './types.js';
import { idList, isRecord } from './validate.js';

const isStream = (v: unknown): v is AsyncIterable<Uint8Array> =>
  typeof v === 'object' && v !== null && Symbol.asyncIterator in v;

export async function upload(s: ServiceContext, request: UploadRequest, auth: Auth): Promise<UploadResponse> {
  const E = (slug: ErrorSlug<'upload'>, vars?: Record<string, string>) =>
    endpointError(`upload.${slug}`, vars);
  const caller = s.callers.identify(auth.token, {
    malformed: () => E('badToken'),
    unknown: () => E('unauthorized'),
  });
  let ownerKey: Buffer | null = null;
  if (caller.kind === 'token') {
    if (!s.callers.hasKey(auth.encKey)) throw E('keyRequired', { key: 'missing' });
    const got = await s.callers.ownerKey(caller, auth.encKey, true);
    if (!got.ok) throw E('badKey', { key: got.problem });
    ownerKey = got.key;
  }
  const bad = (details: string) => E('badMultipart', { details });
  const files = isRecord(request) ? request.files : undefined;
  if (Array.isArray(files) && files.length === 0) throw bad('no files in field "files"');
  if (!Array.isArray(files) && !isStream(files)) throw bad('no files in field "files"');
  const check = (f: unknown, count: number): UploadFile => {
    if (count > s.limits.maxFilesPerUpload) throw bad(`more than ${s.limits.maxFilesPerUpload} files`);
    const name = isRecord(f) ? f.name : undefined;
    if (typeof name !== 'string' || name.length === 0 || name.length > s.limits.maxFileNameLength) {
      throw bad(`every file needs a name of 1 to ${s.limits.maxFileNameLength} characters`);
    }
    if (!isRecord(f) || !(f.data instanceof Uint8Array || isStream(f.data))) {
      throw bad(`file "${name}" has no content`);
    }
    return f as unknown as UploadFile;
  };
  // An array is checked whole before any content is read; a stream of files, file by file.
  if (Array.isArray(files)) {
    for (let i = 0; i < files.length; i++) check(files[i], i + 1);
  }
  const deadline = Date.now() + s.limits.uploadTimeoutMs;
  const staged: { writer: BlobWriter; row: FileRow }[] = [];
  const committed: string[] = [];
  try {
    for await (const f of files as AsyncIterable<unknown> | unknown[]) {
      const file = check(f, staged.length + 1);
      const id = newId();
      const dataKey = ownerKey === null ? null : newDataKey();
      const { writer, size } = await writeContent(s.store.blobs, {
        id,
        data: file.data,
        dataKey,
        maxBytes: s.limits.uploadFileBytes,
        deadline,
      }).catch((e: unknown) => {
        throw !isTaeError(e) || e.context.endpoint === 'upload' || isNoSpace(e)
          ? e
          : e.code === 'TOO_LARGE'
            ? E('tooLarge', { name: file.name })
            : e.code === 'TIMEOUT'
              ? E('timeout')
              : bad(e.message);
      });
      const wrappedKey = dataKey === null ? null : seal(ownerKey!, dataKey, AAD.fileKey(id));
      const row: FileRow = {
        id,
        owner: caller.owner,
        name: file.name,
        createdAt: Date.now(),
        visibility: ownerKey === null ? 'public' : 'private',
        size,
        wrappedKey,
      };
      staged.push({ writer, row });
    }
    if (staged.length === 0) throw bad('no files in field "files"');
    for (const { writer, row } of staged) {
      await writer.commit(row.id);
      committed.push(row.id);
    }
    s.store.files.insertAll(staged.map((x) => x.row));
  } catch (e) {
    await Promise.all(staged.map((x) => x.writer.abort()));
    await Promise.all(committed.map((id) => s.store.blobs.remove(id)));
    throw e;
  }
  const n = staged.length;
  return {
    file_ids: staged.map((x) => [x.row.id, x.row.name]),
    message: `${n} file${n === 1 ? '' : 's'} uploaded`,
  };
}

export async function listFiles(s: ServiceContext, auth: Auth): Promise<FileListResponse> {
  const unauthorized = () => endpointError('listFiles.unauthorized');
  const caller = s.callers.identify(auth.token, { unknown: unauthorized, missing: unauthorized });
  return {
    files: s.store.files
      .listByOwner(caller.owner!)
      .map((f) => [
        f.id,
        f.name,
        `${formatTime(f.createdAt)} UTC`,
        f.visibility,
        f.wrappedKey ? 'encrypted' : 'unencrypted',
      ]),
  };
}

export async function deleteFiles(
  s: ServiceContext,
  request: DeleteRequest,
  auth: Auth,
): Promise<MessageResponse> {
  const E = (slug: ErrorSlug<'deleteFiles'>) => () => endpointError(`deleteFiles.${slug}`);
  const caller = s.callers.identify(auth.token, { unknown: E('unauthorized'), missing: E('unauthorized') });
  const ids = idList(isRecord(request) ? request.ids : undefined, s.limits.maxIdsPerRequest, {
    empty: E('badId'),
    tooMany: E('tooManyIds'),
    bad: E('badId'),
  });
  const refused = await removeFiles(s, ids, (f) => f !== null && f.owner === caller.owner);
  if (refused !== null) throw E('notFound')();
  return { message: `${ids.length} file${ids.length === 1 ? '' : 's'} deleted` };
}
