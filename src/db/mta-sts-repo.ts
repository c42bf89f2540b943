// The recipient domains' MTA-STS policies as last fetched (mta-sts/), shared by every process: one
// process's fetch serves the others until the policy's id changes or its max_age ends.
import type { Kysely } from 'kysely';
import type { StsMode } from '../mta-sts/policy.js';
import type { Database } from './schema.js';

export interface CachedStsPolicy {
  domain: string;
  /** The `_mta-sts` TXT record's id it was fetched under. */
  id: string;
  mode: StsMode;
  mx: string[];
  maxAge: number;
  fetchedAt: number;
  expiresAt: number;
  /** The policy file as served. */
  text: string;
}

export class MtaStsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async get(domain: string): Promise<CachedStsPolicy | undefined> {
    const r = await this.db
      .selectFrom('mta_sts_policies')
      .selectAll()
      .where('domain', '=', domain)
      .executeTakeFirst();
    if (!r) return undefined;
    return {
      domain: r.domain,
      id: r.policy_id,
      mode: r.mode,
      mx: JSON.parse(r.mx) as string[],
      maxAge: Number(r.max_age),
      fetchedAt: Number(r.fetched_at),
      expiresAt: Number(r.expires_at),
      text: r.policy,
    };
  }

  /** How many stored policies still apply at `now`, by mode (`txmail status`). */
  async modesAt(now: number): Promise<Record<StsMode, number>> {
    const rows = await this.db
      .selectFrom('mta_sts_policies')
      .select(['mode', (eb) => eb.fn.countAll<number>().as('n')])
      .where('expires_at', '>', now)
      .groupBy('mode')
      .execute();
    const modes: Record<StsMode, number> = { enforce: 0, testing: 0, none: 0 };
    for (const r of rows) modes[r.mode] = Number(r.n);
    return modes;
  }

  async put(p: CachedStsPolicy): Promise<void> {
    const row = {
      domain: p.domain,
      policy_id: p.id,
      mode: p.mode,
      mx: JSON.stringify(p.mx),
      max_age: p.maxAge,
      fetched_at: p.fetchedAt,
      expires_at: p.expiresAt,
      policy: p.text,
    };
    await this.db
      .insertInto('mta_sts_policies')
      .values(row)
      .onConflict((oc) =>
        oc.column('domain').doUpdateSet({
          policy_id: row.policy_id,
          mode: row.mode,
          mx: row.mx,
          max_age: row.max_age,
          fetched_at: row.fetched_at,
          expires_at: row.expires_at,
          policy: row.policy,
        }),
      )
      .execute();
  }
}
