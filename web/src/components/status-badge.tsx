// A status in words (never colour alone), coloured by how good it is.
const TONES: Record<string, string> = {
  delivered: 'good',
  verified: 'good',
  found: 'good',
  production: 'good',
  pass: 'good',
  active: 'good',
  queued: 'neutral',
  test: 'neutral',
  pending: 'neutral',
  not_checked: 'neutral',
  retired: 'neutral',
  sandbox: 'warn',
  deferred: 'warn',
  temporary_failure: 'warn',
  inconclusive: 'warn',
  error: 'warn',
  bounced: 'bad',
  failed: 'bad',
  complained: 'bad',
  missing: 'bad',
  wrong: 'bad',
  fail: 'bad',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge ${TONES[status] ?? 'neutral'}`}>{status.replace(/_/g, ' ')}</span>;
}
