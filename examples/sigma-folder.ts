// Run Sigma rules over every EVTX file of a folder (TypeScript; Node 24 runs it as is).
//   node sigma-folder.ts RULES_DIR LOGS_DIR
// The rules are compiled once into a rule set (mapped to Windows channels and event ids,
// indexed); each event is then matched against it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEvtx } from 'threat-analysis-engine/evtx';
import { compileRuleSet, loadRules, type SigmaRule, sigmaEventFromEvtx } from 'threat-analysis-engine/sigma';

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
  const parse = parseEvtx(join(logsDir, name), { outputs: ['event'] });
  for await (const record of parse) {
    if (record.event === undefined) continue;
    for (const { rule } of ruleSet.match(sigmaEventFromEvtx(record.event))) {
      // The Windows EventRecordID, as Event Viewer shows it (record.recordNumber is the header's).
      const recordId = record.event.recordId;
      console.log(JSON.stringify({ file: name, recordId, rule: rule.title, level: rule.level }));
      hits.set(rule.title, (hits.get(rule.title) ?? 0) + 1);
    }
  }
}
console.error(`${rules.length} rules; hits: ${JSON.stringify(Object.fromEntries(hits))}`);
