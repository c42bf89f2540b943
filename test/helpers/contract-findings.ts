// The OpenAPI contract check's findings (helpers/openapi-contract.ts records them), apart from the
// checker so that the set-up file every test file loads (openapi-contract-file.ts) does not load Ajv.

/** Where the run's findings go: set by test/openapi-contract-setup.ts for every test process. */
export const CONTRACT_DIR_VARIABLE = 'TXMAIL_TEST_OPENAPI_CONTRACT_DIR';

export interface Finding {
  method: string;
  route: string;
  status: number;
  problem: string;
  /** The test file that got the answer. */
  file: string | undefined;
}

/** This test process's mismatches not yet reported (test/openapi-contract-file.ts reports them). */
const unreported: Finding[] = [];

export function recordFinding(finding: Finding): void {
  unreported.push(finding);
}

/** The mismatches recorded since the last call. */
export function takeFindings(): Finding[] {
  return unreported.splice(0);
}

/** What must happen when a test file ends (helpers/server-contract.ts: count its servers' answers). */
const fileEnd = new Set<() => void>();

export function atFileEnd(run: () => void): void {
  fileEnd.add(run);
}

/** Runs, once, what was asked for at the end of this test file (openapi-contract-file.ts). */
export function endFile(): void {
  for (const run of fileEnd) run();
  fileEnd.clear();
}
