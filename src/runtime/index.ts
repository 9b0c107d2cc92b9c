/// <reference types="node" preserve="true" />
/**
 * The Node.js version the package needs, checked when this module is evaluated. Every entry
 * point (src/index.ts, src/entry/*, the CLI's main.ts) imports it before anything else: ES
 * modules are evaluated in import order, so a throw here stops the entry before any sibling
 * module runs and before a native package (SQLite, YARA-X) is loaded. On Node 20 those
 * native packages end the process with a segmentation fault and no message (issue 48).
 *
 * The reference above is kept in the published declarations (`preserve`), and every entry's
 * declarations import this module's: a consumer's TypeScript then loads the Node types that the
 * declarations use (`Buffer`, `NodeJS.ReadableStream`…) from the package's `@types/node`
 * dependency, without `"types": ["node"]` (TypeScript 6+ defaults to none) or an install.
 */
import { TaeError } from '../errors/index.js';

/** The lowest Node.js version the package runs on: package.json `engines.node` (a test compares). */
export const REQUIRED_NODE = '22.12';

/** Why `version` (`process.versions.node`) cannot run the package, or undefined when it can. */
export function unsupportedNode(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [needMajor = 0, needMinor = 0] = REQUIRED_NODE.split('.').map(Number);
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return `threat-analysis-engine needs Node.js ${REQUIRED_NODE} or newer (this is Node.js ${version}): install Node.js 24 LTS`;
}

const problem = unsupportedNode(process.versions.node);
if (problem !== undefined)
  throw new TaeError('NATIVE_UNAVAILABLE', problem, {
    context: { node: process.versions.node, required: `>=${REQUIRED_NODE}` },
  });
