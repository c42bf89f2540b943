// A production account for the benchmarks: scale plan, a verified domain with a DKIM key, an API key.
import { newId } from '../../dist/ids.js';

/**
 * Returns the API key. The scale plan's 100,000 emails a month bound one tenant's run; `uncapped` starts
 * this month's count a million below zero, so that a longer run is judged by the whole send path and
 * never refused by the cap.
 */
export async function createBenchTenant(
  services,
  email,
  { domain = 'acme.example', dkim = true, uncapped = false } = {},
) {
  const account = await services.accounts.create({ email, plan: 'scale' });
  if (uncapped) {
    await services.db.kysely
      .insertInto('usage')
      .values({ account_id: account.id, month: new Date().toISOString().slice(0, 7), sent: -1_000_000 })
      .execute();
  }
  await services.repos.domains.insert({
    id: newId(),
    account_id: account.id,
    name: domain,
    status: 'verified',
    created_at: Date.now(),
    verified_at: Date.now(),
  });
  await services.repos.accounts.setState(account.id, 'production');
  if (dkim) await services.dkim.create(domain, account.id);
  return (await services.accounts.createApiKey(account.id, 'bench')).key;
}
