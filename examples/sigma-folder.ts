// Run Sigma rules over every EVTX file of a folder (TypeScript; Node 24 runs it as is).
//   node sigma-folder.ts RULES_DIR LOGS_DIR
// The rules are compiled once into a rule set (mapped to Windows channels and event ids,
// indexed); sigmaHits then yields one typed hit per matching event and rule.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileRuleSet, loadRules, type SigmaRule, sigmaHits } from 'threat-analysis-engine';

const [rulesDir, logsDir] = process.argv.slice(2);
if (rulesDir === undefined || logsDir === undefined) {
  console.error('usage: node sigma-folder.ts RULES_DIR LOGS_DIR');
  process.exit(2);
}

const rules: SigmaRule[] = [];
for (const name of readdirSync(rulesDir)
  .filter((n) => /\.ya?ml$/.test(n))
  .sort()) {
  const loaded = loadRules(readFileSync(join(rulesDir, name), 'utf8'), name);
  for (const d of loaded.diagnostics) console.error(`${name}: ${d.code}: ${d.message}`);
  rules.push(...loaded.rules);
}
const ruleSet = compileRuleSet({ rules });

const hits = new Map<string, number>();
for (const name of readdirSync(logsDir)
  .filter((n) => n.endsWith('.evtx'))
  .sort()) {
  for await (const hit of sigmaHits(join(logsDir, name), { sigma: ruleSet })) {
    // recordId is the Windows EventRecordID, as Event Viewer shows it.
    const { recordId, title, level, evidence } = hit;
    const fields = Object.fromEntries(evidence.map((f) => [f.name, f.value]));
    console.log(JSON.stringify({ file: name, recordId, rule: title, level, fields }));
    hits.set(title, (hits.get(title) ?? 0) + 1);
  }
}
console.error(`${rules.length} rules; hits: ${JSON.stringify(Object.fromEntries(hits))}`);
