// The domain page's warning when this txmail's own host name is a bare label (web/src/components/service-host.ts).
import { describe, expect, it } from 'vitest';
import { bareServiceHost } from '../../web/src/components/service-host.js';

const records = (mx: string) => [
  { record: 'dkim', value: 'v=DKIM1; k=rsa; p=AAAA' },
  { record: 'return_path_mx', value: mx },
];

describe('bareServiceHost', () => {
  it('names a bare label the return-path MX points at', () => {
    expect(bareServiceHost(records('vm'))).toBe('vm');
    expect(bareServiceHost(records('vm.'))).toBe('vm');
  });
  it('says nothing of a full name, or without such a record', () => {
    expect(bareServiceHost(records('mta.txmail.example'))).toBeUndefined();
    expect(bareServiceHost([{ record: 'spf', value: 'v=spf1 include:spf.vm ~all' }])).toBeUndefined();
  });
});
