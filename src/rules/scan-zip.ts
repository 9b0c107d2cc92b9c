/**
 * Reading a zip pack (a SigmaHQ or YARA release archive carried to an air-gapped machine)
 * straight into memory, nothing extracted to disk. The archive is refused as a whole when an
 * entry name escapes it (absolute, drive letter, `..`, control characters) or when the entry
 * count or declared uncompressed total exceeds the limits; the byte count of every stream is
 * enforced as well, so a lying header cannot inflate past the bound.
 */
import { basename } from 'node:path';
import type { Entry, ZipFile } from 'yauzl';
import { TaeError } from '../errors/index.js';
import { ruleFileOf } from './names.js';
import type { CandidateFile, PackScan, ScanProblem } from './scan.js';
import { tooLarge } from './scan-directory.js';
import type { PackLimits } from './types.js';

function rejected(zip: string, reason: string): TaeError {
  return new TaeError('INPUT_UNREADABLE', `zip pack ${basename(zip)} rejected: ${reason}`, {
    context: { pack: zip },
  });
}

/** The entry's `/`-separated path, or why the name is refused. */
export function entryPath(name: string): { path: string } | { problem: string } {
  const shown = JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);
  if (/[\u0000-\u001f\u007f]/.test(name))
    return { problem: `entry ${shown} has control characters in its name` };
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed))
    return { problem: `entry ${shown} has an absolute path` };
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return { problem: `entry ${shown} escapes the archive with '..'` };
  return { path: segments.join('/') };
}

async function readEntry(zip: ZipFile, entry: Entry, max: number): Promise<Uint8Array> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      stream.destroy();
      throw new Error(`inflates past ${max} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function scanZip(file: string, limits: PackLimits): Promise<PackScan> {
  // Loaded on the first zip pack: importing the library (or opening an Engine) never needs it.
  const { default: yauzl } = await import('yauzl');
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
    });
  } catch (e) {
    throw rejected(file, `not a readable zip archive (${(e as Error).message})`);
  }
  const files: CandidateFile[] = [];
  const problems: ScanProblem[] = [];
  const seen = new Set<string>();
  let declared = 0;
  try {
    if (zip.entryCount > limits.maxZipEntries) throw tooLarge(file, 'zip entries', limits.maxZipEntries);
    for await (const entry of zip.eachEntry()) {
      const raw = yauzl.getFileNameLowLevel(
        entry.generalPurposeBitFlag,
        entry.fileNameRaw,
        entry.extraFields,
        false,
      );
      const checked = entryPath(raw);
      if ('problem' in checked) throw rejected(file, checked.problem);
      declared += entry.uncompressedSize;
      if (declared > limits.maxTotalBytes) throw tooLarge(file, 'uncompressed bytes', limits.maxTotalBytes);
      const { path } = checked;
      const base = path.slice(path.lastIndexOf('/') + 1);
      const rule = raw.endsWith('/') ? undefined : ruleFileOf(base);
      if (rule === undefined || path.split('/').some((s) => s.startsWith('.'))) continue;
      if (seen.has(path)) {
        problems.push({
          path,
          code: 'file.duplicate',
          message: 'a second entry with the same path was ignored',
        });
        continue;
      }
      seen.add(path);
      if (entry.isEncrypted()) {
        problems.push({ path, code: 'file.encrypted', message: 'encrypted entries are not read' });
        continue;
      }
      if (entry.uncompressedSize > limits.maxFileBytes) {
        problems.push({
          path,
          code: 'file.too_large',
          message: `${entry.uncompressedSize} bytes, over ${limits.maxFileBytes}`,
        });
        continue;
      }
      if (files.length >= limits.maxFiles) throw tooLarge(file, 'rule files', limits.maxFiles);
      try {
        files.push({ path, ...rule, bytes: await readEntry(zip, entry, limits.maxFileBytes) });
      } catch (e) {
        problems.push({ path, code: 'file.unreadable', message: (e as Error).message });
      }
    }
  } catch (e) {
    if (e instanceof TaeError) throw e;
    throw rejected(file, (e as Error).message);
  } finally {
    zip.close();
  }
  return { files, problems };
}
