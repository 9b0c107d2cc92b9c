// Scan files with a YARA rule (CommonJS: require() of the ES module package, Node 22.12+).
//   node yara-files.cjs RULE.yar FILE…
// Files are read and scanned by worker threads, with a timeout always set; a file that
// cannot be read becomes an Error insight beside the results of the others.
const { readFileSync } = require('node:fs');
const { basename } = require('node:path');
const { isTaeError, scanFiles } = require('threat-analysis-engine/yara');

async function main() {
  const [ruleFile, ...paths] = process.argv.slice(2);
  if (ruleFile === undefined || paths.length === 0) {
    console.error('usage: node yara-files.cjs RULE.yar FILE…');
    process.exitCode = 2;
    return;
  }
  const scan = await scanFiles({
    files: paths.map((path) => ({ name: basename(path), path })),
    rules: { kind: 'custom', source: readFileSync(ruleFile, 'utf8') },
    timeoutMs: 10_000,
  });
  for (const e of scan.compileErrors) console.error(`rule error: ${e.text}`);
  for (const insight of scan.insights) console.log(JSON.stringify(insight));
  console.error(JSON.stringify(scan.stats));
}

main().catch((e) => {
  console.error(isTaeError(e) ? `${e.code}: ${e.message}` : e);
  process.exitCode = 3;
});
