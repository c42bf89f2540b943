// The process's metrics are collected once per process and added to every instance's exposition; the
// instance's own metrics stay its own.
import { describe, expect, it } from 'vitest';
import { Metrics } from '../../src/metrics.js';

describe('GET /metrics exposition', () => {
  it("shows the process's metrics once beside each instance's own", async () => {
    const depth = async () => ({ waiting: 0, oldestCreatedAt: undefined });
    const a = new Metrics(depth, () => 0);
    const b = new Metrics(depth, () => 0);
    a.accepted.inc({ route: 'send' }, 3);
    const [textA, textB] = [await a.exposition(), await b.exposition()];
    for (const text of [textA, textB]) {
      expect(text.match(/^# TYPE txmail_process_process_cpu_seconds_total /gm)).toHaveLength(1);
      expect(text.match(/^# TYPE txmail_emails_accepted_total /gm)).toHaveLength(1);
    }
    expect(textA).toContain('txmail_emails_accepted_total{route="send"} 3');
    expect(textB).not.toContain('txmail_emails_accepted_total{route="send"} 3');
    // The instance's registry holds only its own: the process's collectors are not made again for it.
    expect(a.registry.getSingleMetric('txmail_process_process_cpu_seconds_total')).toBeUndefined();
  });
});
