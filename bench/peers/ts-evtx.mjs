// Peer: @ts-evtx/core renderXml() over every record of the given files, stopping at DEADLINE_MS.
import { EvtxFile } from '@ts-evtx/core';

const deadline = Date.now() + Number(process.env.DEADLINE_MS ?? 1e12);
let records = 0;
let failedFiles = 0;
let capped = false;
outer: for (const path of process.argv.slice(2)) {
  try {
    const file = EvtxFile.openSync(path);
    for (const rec of file.records()) {
      rec.renderXml();
      records++;
      if ((records & 63) === 0 && Date.now() > deadline) {
        capped = true;
        break outer;
      }
    }
  } catch {
    failedFiles++;
  }
}
console.log(JSON.stringify({ records, failedFiles, capped }));
