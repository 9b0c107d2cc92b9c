/** `tae files list|upload|delete`: the caller's files on the engine in the data directory. */
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { TaeError } from '../errors/index.js';
import { type Auth, DEFAULT_LIMITS, type Engine } from '../service/index.js';
import { warn } from './common.js';
import { type EngineFlags, engineOptions, withEngine } from './engine-flags.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { type FormatFlags, formatOf, formatOptions } from './formats.js';
import { expandInputs, inputsHelp } from './inputs.js';
import { writeRecords } from './output.js';
import { column } from './records.js';
import { outLine } from './terminal.js';

type Flags = EngineFlags & FormatFlags;

const FILE_COLUMNS = [
  column('file_id', 'File ID'),
  column('file_name', 'Name'),
  column('creation_date', 'Created'),
  column('visibility', 'Visibility'),
  column('encryption_status', 'Encryption'),
];

export function filesCommand(program: Command, setExit: (code: ExitCode) => void): void {
  const files = program.command('files').description('files stored by the engine in the data directory');

  const list = files.command('list').description("list the token's files");
  formatOptions(engineOptions(list), { timesketch: false }).action(async (flags: Flags) => {
    const format = formatOf(flags);
    const { files: rows } = await withEngine(flags, (engine, auth) => engine.listFiles(auth));
    const records = rows.map((r) => Object.fromEntries(FILE_COLUMNS.map((c, i) => [c.key, r[i] ?? ''])));
    await writeRecords({ columns: FILE_COLUMNS, rows: records, empty: 'No files.' }, format);
  });

  const upload = files
    .command('upload')
    .description('store files (encrypted when a token and key are given; streamed, never whole in memory)')
    .argument('<inputs...>', 'files or directories to upload, - or @LIST')
    .addHelpText('after', inputsHelp('any'));
  formatOptions(engineOptions(upload), { timesketch: false }).action(
    async (operands: string[], flags: Flags) => {
      const format = formatOf(flags);
      const { files: paths, unreadable } = await expandInputs(operands, 'any');
      // The files of one upload are stored together or not at all: any problem stops it.
      if (unreadable > 0 || paths.length === 0) return setExit(EXIT.INPUT);
      for (const p of paths)
        if (!statSync(p, { throwIfNoEntry: false })?.isFile())
          throw new TaeError('INPUT_UNREADABLE', `cannot open ${p}: not a file`);
      const fileIds = await withEngine(flags, (engine, auth) => uploadInBatches(engine, auth, paths));
      await writeRecords(
        {
          columns: [column('file_id', 'File ID'), column('file_name', 'Name')],
          rows: fileIds.map(([file_id, file_name]) => ({ file_id, file_name })),
        },
        format,
      );
    },
  );

  const remove = files
    .command('delete')
    .description('delete files permanently')
    .argument('<ids...>', 'file ids');
  engineOptions(remove).action(async (ids: string[], flags: EngineFlags) => {
    const { message } = await withEngine(flags, (engine, auth) => engine.deleteFiles({ ids }, auth));
    outLine(message);
  });
}

/**
 * The engine takes at most 100 files an upload (and ids a delete), so more are sent 100 at a
 * time, each stream opened only when its batch goes. What the engine would refuse in a later
 * batch (a file over 250 MB) is refused before the first is sent, so the command stays all
 * or nothing as one upload is; should a later batch still fail (a full disk, the 30 s clock),
 * the batches stored before it are deleted again, or, being public (no token: nobody may
 * delete them), said on stderr.
 */
async function uploadInBatches(
  engine: Engine,
  auth: Auth,
  paths: readonly string[],
): Promise<[string, string][]> {
  const { maxFilesPerUpload, maxIdsPerRequest, uploadFileBytes } = DEFAULT_LIMITS;
  if (paths.length > maxFilesPerUpload)
    for (const p of paths)
      if (statSync(p).size > uploadFileBytes)
        throw new TaeError('TOO_LARGE', `File too large: ${basename(p)} exceeds the 250 MB limit`);
  const stored: [string, string][] = [];
  try {
    for (let at = 0; at < paths.length; at += maxFilesPerUpload) {
      const batch = paths.slice(at, at + maxFilesPerUpload);
      const response = await engine.upload(
        { files: batch.map((p) => ({ name: basename(p), data: createReadStream(p) })) },
        auth,
      );
      stored.push(...response.file_ids);
    }
  } catch (e) {
    if (stored.length > 0 && !auth.token)
      warn(`${stored.length} public files of earlier batches stay stored (nobody may delete public files)`);
    else
      for (let at = 0; at < stored.length; at += maxIdsPerRequest)
        await engine
          .deleteFiles({ ids: stored.slice(at, at + maxIdsPerRequest).map(([id]) => id) }, auth)
          .catch(() => {}); // the refusal is the error to report
    throw e;
  }
  return stored;
}
