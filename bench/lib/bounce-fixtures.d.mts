// Types of bounce-fixtures.mjs for the test that drives it.
import type { InboundReport } from '../../src/bounce/parse-report.js';
import type { Decision, DecideInput } from '../../src/inbound/decide-effects.js';

export const FIXTURE_DIR: string;
export const VALUES: { verp: string; messageId: string; to: string; returnPathDomain: string };

export type Outcome =
  'bounced' | 'delayed' | 'complaint' | 'unsubscribe' | 'recorded' | 'auto_reply' | 'nothing';

export interface Expectation {
  outcome: Outcome;
  format?: string;
  category?: string;
  type?: 'permanent' | 'transient' | 'undetermined';
  suppress: boolean;
  recipient?: string;
}

export interface ManifestEntry {
  file: string;
  from?: string;
  rcpt?: 'verp' | 'fbl';
  to?: string;
  expect: Expectation;
}

export interface Judged {
  file: string;
  expect: Expectation;
  outcome: Outcome;
  kind: InboundReport['kind'];
  format: string | undefined;
  category: string | undefined;
  type: string | undefined;
  suppress: boolean;
  recipients: string[];
  report: InboundReport;
}

export interface Code {
  parseReport(raw: Buffer, envelope: { mailFrom: string }): Promise<InboundReport>;
  decideEffects(input: DecideInput): Decision;
}

export interface Figures {
  total: number;
  right: number;
  byOutcome: Record<string, { total: number; right: number }>;
  hard: number;
  hardSuppressed: number;
  soft: number;
  softSuppressed: number;
  complaints: number;
  complaintsRecognised: number;
  categorised: number;
  categoriesRight: number;
  misses: { file: string; expected: string; got: string }[];
}

export function loadManifest(): ManifestEntry[];
export function fixtureBytes(file: string, values: typeof VALUES): Buffer;
export function judge(code: Code, entry: ManifestEntry): Promise<Judged>;
export function figures(results: Judged[]): Figures;
export function describeFigures(f: Figures): string;
