/** A thread that runs one part of a generated-records comparison (renderer-differential.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { compareGenerated } from './renderer-differential.js';

const { seed, from, to } = workerData as { seed: number; from: number; to: number };
parentPort!.postMessage(compareGenerated(seed, from, to));
