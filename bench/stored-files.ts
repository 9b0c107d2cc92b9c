/**
 * Reads every file the crash campaign's ledger holds as live back from the stopped server's
 * data directory (decrypting private ones with their owner's key), and counts those whose
 * bytes differ from what was uploaded, and blobs that belong to no file.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AAD, deriveOwnerKey, open, tokenDigest } from '../src/crypto/index.js';
import { readContent, Store } from '../src/store/index.js';
import { type Ledger, sha256 } from './crash-ledger.js';
import type { Auth } from './service-client.js';

export async function verifyStoredFiles(dataDir: string, ledger: Ledger, owners: readonly Auth[]) {
  const store = await Store.open({ dataDir });
  const result = { filesVerified: 0, filesCorrupt: [] as string[], filesMissingFromStore: [] as string[] };
  try {
    const ownerKeys = await Promise.all(
      owners.map(async (auth) => {
        const salt = auth.encKey === undefined ? null : store.tokens.get(tokenDigest(auth.token!))?.keySalt;
        return salt == null ? null : deriveOwnerKey(auth.encKey!, salt);
      }),
    );
    for (const entry of ledger.files.values()) {
      if (entry.state !== 'live') continue;
      const row = store.files.get(entry.id);
      if (row === null) {
        result.filesMissingFromStore.push(entry.id);
        continue;
      }
      const ownerKey = ownerKeys[entry.owner] ?? null;
      const dataKey =
        row.wrappedKey === null || ownerKey === null
          ? null
          : open(ownerKey, row.wrappedKey, AAD.fileKey(row.id));
      try {
        const bytes = await readContent(store.blobs, row, dataKey);
        if (sha256(bytes) === entry.sha256) result.filesVerified++;
        else result.filesCorrupt.push(entry.id);
      } catch {
        result.filesCorrupt.push(entry.id);
      }
    }
    const known = store.files.allIds();
    const orphanBlobs = readdirSync(join(dataDir, 'files')).filter((name) => !known.has(name));
    return { ...result, orphanBlobs: orphanBlobs.length };
  } finally {
    store.close();
  }
}
