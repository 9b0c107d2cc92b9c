/**
 * The interface's endpoints, each named after the Engine method that implements it, with
 * the error body format the spec gives it (JSON `{ error }` or plain text). `cancelJob` is
 * ours: the spec asks for running jobs to be cancellable but shows no operation.
 */
import type { ErrorBodyFormat } from '../errors/index.js';

export interface EndpointInfo {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** The endpoint's name in the spec's error tables. */
  readonly specName: string;
  readonly bodyFormat: ErrorBodyFormat;
}

export const ENDPOINTS = {
  upload: { method: 'POST', path: '/upload', specName: 'upload', bodyFormat: 'text' },
  createParseJob: {
    method: 'POST',
    path: '/analysis/winevtx/parse',
    specName: 'winevtx parse',
    bodyFormat: 'json',
  },
  search: {
    method: 'POST',
    path: '/analysis/winevtx/search',
    specName: 'winevtx search',
    bodyFormat: 'json',
  },
  createYaraFileJob: {
    method: 'POST',
    path: '/analysis/yara/file',
    specName: 'yara file',
    bodyFormat: 'json',
  },
  yaraData: { method: 'POST', path: '/analysis/yara/data', specName: 'yara data', bodyFormat: 'text' },
  yaraRules: { method: 'POST', path: '/analysis/yara/rules', specName: 'yara rules', bodyFormat: 'json' },
  createSigmaFileJob: {
    method: 'POST',
    path: '/analysis/sigma/file',
    specName: 'sigma file',
    bodyFormat: 'text',
  },
  sigmaData: { method: 'POST', path: '/analysis/sigma/data', specName: 'sigma data', bodyFormat: 'text' },
  sigmaRules: { method: 'POST', path: '/analysis/sigma/rules', specName: 'sigma rules', bodyFormat: 'text' },
  lookup: { method: 'POST', path: '/analysis/lookup', specName: 'lookup', bodyFormat: 'text' },
  getJob: { method: 'GET', path: '/analysis/job/{job_id}', specName: 'job status', bodyFormat: 'text' },
  listJobs: { method: 'GET', path: '/analysis/job/list', specName: 'job list', bodyFormat: 'text' },
  deleteJobs: { method: 'POST', path: '/analysis/job/delete', specName: 'job delete', bodyFormat: 'text' },
  listFiles: { method: 'GET', path: '/analysis/file/list', specName: 'file list', bodyFormat: 'json' },
  deleteFiles: { method: 'POST', path: '/analysis/file/delete', specName: 'file delete', bodyFormat: 'json' },
  cancelJob: { method: 'POST', path: '/analysis/job/cancel', specName: 'job cancel', bodyFormat: 'text' },
} as const satisfies Record<string, EndpointInfo>;

export type Endpoint = keyof typeof ENDPOINTS;
