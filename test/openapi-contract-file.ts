// Vitest set-up file: a test file whose apps gave an answer /openapi.json does not describe fails, with
// the list (helpers/openapi-contract.ts records them; openapi-contract-setup.ts sums up the run).
import { afterAll } from 'vitest';
import { endFile, takeFindings } from './helpers/contract-findings.js';

afterAll(() => {
  endFile();
  const findings = takeFindings();
  if (findings.length === 0) return;
  const lines = [...new Set(findings.map((f) => `  ${f.method} ${f.route} ${f.status}: ${f.problem}`))];
  throw new Error(`answers not as /openapi.json describes them:\n${lines.join('\n')}`);
});
