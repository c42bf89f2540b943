// Vitest global set-up: every test process records how many answers its apps gave and those that
// /openapi.json does not describe (helpers/openapi-contract.ts, wired in helpers/services.ts). A test
// file that got one fails (openapi-contract-file.ts); the run ends with the count and the list.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CONTRACT_DIR_VARIABLE, type Finding } from './helpers/contract-findings.js';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'txmail-contract-'));
  process.env[CONTRACT_DIR_VARIABLE] = dir;
  return () => {
    let checked = 0;
    const findings: Finding[] = [];
    for (const name of readdirSync(dir)) {
      for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
        if (line === '') continue;
        const entry = JSON.parse(line) as Finding | { checked: number };
        if ('checked' in entry) checked += entry.checked;
        else findings.push(entry);
      }
    }
    rmSync(dir, { recursive: true, force: true });
    if (findings.length === 0) {
      if (checked > 0) console.log(`OpenAPI contract: ${checked} answers checked, all as documented`);
      return;
    }
    const lines = findings.map(
      (f) =>
        `  ${f.method} ${f.route} ${f.status}: ${f.problem}${f.file ? ` (${relative(process.cwd(), f.file)})` : ''}`,
    );
    // The test files that got them have failed already; this is the run's list.
    console.error(
      `OpenAPI contract: ${findings.length} of ${checked} answers are not as /openapi.json describes them:\n${[...new Set(lines)].join('\n')}`,
    );
  };
}
