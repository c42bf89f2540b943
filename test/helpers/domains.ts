// Publishing what the domains API asks for on the test DNS server, and calling the API as a tenant.
import type { FastifyInstance } from 'fastify';
import type { TestDnsServer } from './dns-server.js';
import type { Tenant } from './services.js';

export interface RecordJson {
  record: 'dkim' | 'return_path_mx' | 'spf' | 'dmarc';
  type: 'TXT' | 'MX';
  name: string;
  value: string;
  priority?: number;
  required: boolean;
  status: string;
  seen: string[];
  problems: string[];
  warnings: string[];
}

export interface DomainJson {
  id: string;
  name: string;
  unicode_name: string;
  status: string;
  verified_at: string | null;
  next_check_at: string | null;
  fails_at: string | null;
  records: RecordJson[];
  last_check: {
    outcome: string;
    spf_lookups: number | null;
    dmarc: { policy: string | null; guidance: string };
  } | null;
}

/** The service's own SPF include domain and inbound MX host in tests. */
const SERVICE_DNS_ENV = {
  TXMAIL_TEST_DOMAIN: 'test.txmail.example',
  TXMAIL_SPF_DOMAIN: 'spf.txmail.example',
  TXMAIL_INBOUND_MX: 'mx.txmail.example',
};

/**
 * Readies `dns` (started) for a domains test and answers txmail's settings for it: the service's SPF
 * include domain published, as `txmail dns` tells the operator to, and the service's own DNS names.
 * Calling it again publishes nothing twice.
 */
export function serviceDnsEnv(dns: TestDnsServer): Record<string, string> {
  const spf = SERVICE_DNS_ENV.TXMAIL_SPF_DOMAIN;
  dns.remove(spf, 'TXT').add(spf, 'TXT', 'v=spf1 ip4:127.0.0.1 -all');
  return { TXMAIL_DNS_SERVERS: dns.address, ...SERVICE_DNS_ENV };
}

export function domainsApi(app: FastifyInstance) {
  return (tenant: Tenant, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { 'x-api-key': tenant.apiKey },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
}

/** Publishes the records of `kinds` exactly as the API gave them. */
export function publish(
  dns: TestDnsServer,
  domain: DomainJson,
  kinds: RecordJson['record'][] = ['dkim', 'return_path_mx', 'spf'],
): void {
  for (const r of domain.records) {
    if (!kinds.includes(r.record)) continue;
    if (r.type === 'MX') dns.add(r.name, 'MX', { preference: r.priority ?? 10, exchange: r.value });
    else dns.add(r.name, 'TXT', r.value);
  }
}

export function recordOf(domain: DomainJson, kind: RecordJson['record']): RecordJson {
  const r = domain.records.find((x) => x.record === kind);
  if (!r) throw new Error(`no ${kind} record`);
  return r;
}
