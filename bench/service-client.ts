/**
 * The HTTP calls the crash and load campaigns make, as a client of `tae serve` would: each
 * answer's status is tallied (a 5xx is a failure of the server), and a request that got no
 * answer (the server was killed under it) is `null`, never an exception.
 */
import type {
  FileListResponse,
  JobCreated,
  JobListResponse,
  JobStatusResponse,
  UploadResponse,
} from '../src/entry/service.js';

export interface Auth {
  readonly token?: string;
  readonly encKey?: string;
}

export interface Answer<T> {
  readonly status: number;
  readonly text: string;
  /** The parsed body of a 200. */
  readonly body: T | null;
}

export class ServiceClient {
  /** Answers by status class (`2xx`, `4xx`, `5xx`) and requests with no answer (`none`). */
  readonly tally: Record<string, number> = {};
  /** The first few 5xx answers, to show. */
  readonly serverErrors: string[] = [];
  /** Refusals (4xx) by endpoint, status and text, counted. */
  readonly refusals: Record<string, number> = {};

  constructor(public base: string) {}

  private async call<T>(method: string, path: string, auth: Auth, body?: string | FormData, json = true) {
    const headers: Record<string, string> = {};
    if (auth.token) headers['X-Service-Api-Token'] = auth.token;
    if (auth.encKey) headers['X-Service-Api-Enc-Key'] = auth.encKey;
    if (body !== undefined && json) headers['Content-Type'] = 'application/json';
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
      text = await res.text();
    } catch {
      this.tally.none = (this.tally.none ?? 0) + 1;
      return null;
    }
    const kind = `${Math.floor(res.status / 100)}xx`;
    this.tally[kind] = (this.tally[kind] ?? 0) + 1;
    if (res.status >= 400 && res.status < 500) {
      const key = `${method} ${path.replace(/[0-9a-f-]{36}/g, '{id}')}: ${res.status} ${text.slice(0, 80)}`;
      this.refusals[key] = (this.refusals[key] ?? 0) + 1;
    }
    if (res.status >= 500 && this.serverErrors.length < 10)
      this.serverErrors.push(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return { status: res.status, text, body: res.status === 200 ? (JSON.parse(text) as T) : null };
  }

  upload(auth: Auth, files: readonly { name: string; bytes: Uint8Array }[]) {
    const form = new FormData();
    for (const f of files) form.append('files', new Blob([f.bytes]), f.name);
    return this.call<UploadResponse>('POST', '/upload', auth, form, false);
  }

  parse(auth: Auth, fileIds: readonly string[], sigma: boolean) {
    const body = JSON.stringify({ file_ids: fileIds, run_sigma_rules: sigma });
    return this.call<JobCreated>('POST', '/analysis/winevtx/parse', auth, body);
  }

  job(auth: Auth, id: string) {
    return this.call<JobStatusResponse>('GET', `/analysis/job/${id}`, auth);
  }

  search(auth: Auth, jobId: string, text: string) {
    const body = JSON.stringify({ job_id: jobId, search: text, page: 1, show: 20, browse_events: true });
    return this.call<unknown>('POST', '/analysis/winevtx/search', auth, body);
  }

  files(auth: Auth) {
    return this.call<FileListResponse>('GET', '/analysis/file/list', auth);
  }

  jobs(auth: Auth) {
    return this.call<JobListResponse>('GET', '/analysis/job/list', auth);
  }

  deleteFiles(auth: Auth, ids: readonly string[]) {
    return this.call<unknown>('POST', '/analysis/file/delete', auth, JSON.stringify({ ids }));
  }

  deleteJobs(auth: Auth, ids: readonly string[]) {
    return this.call<unknown>('POST', '/analysis/job/delete', auth, JSON.stringify({ ids }));
  }
}
