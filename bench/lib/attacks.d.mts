// Types of attacks.mjs for the tests that drive it.
export const TEST_DOMAIN: string;

export interface Health {
  n: number;
  p50: number;
  p99: number;
  max: number;
  over50: number;
}

export interface AttackResult {
  held: boolean;
  detail: string;
  [measure: string]: unknown;
}

export interface Tenant {
  id: string;
  email: string;
  key: string;
  password?: string;
}

export interface Target {
  url: string;
  inboundPort: number;
  tenants: Record<'free' | 'noisy' | 'quiet' | 'owner' | 'exporter', Tenant>;
  dbFile: string;
  output(): string;
  count(table: string, where?: Record<string, unknown>): Promise<number>;
  stop(options?: { kill?: boolean }): Promise<void>;
}

export function startTarget(options?: { env?: Record<string, string>; logLevel?: string }): Promise<Target>;
export function withHealthProbe<T>(url: string, during: Promise<T>): Promise<{ result: T; health: Health }>;
export const ATTACKS: Record<
  string,
  (target: Target, options?: Record<string, number>) => Promise<AttackResult>
>;
