// An Idempotency-Key repeated while its first request is still being stored gets 409
// idempotency_in_progress. Over HTTP the two requests race (the first may be stored before the second
// is read, and then the second is rightly a replay), so the write is held here until the repeat has
// been answered.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { AcceptItem, AcceptOutcome } from '../../src/db/accept-item.js';
import type { AcceptReadsRepo } from '../../src/db/accept-reads-repo.js';
import type { Account } from '../../src/db/schema.js';
import { AppError } from '../../src/errors.js';
import { AcceptService, type AcceptRequest } from '../../src/messages/accept.js';

const account: Account = {
  id: 'acc1',
  email: 'owner@acme.example',
  password_hash: null,
  plan: 'pro',
  state: 'production',
  suspended_at: null,
  created_at: 1,
  email_verified_at: 1,
  reputation_status: 'healthy',
  reputation_reason: null,
  reputation_changed_at: null,
  require_totp_at: null,
  content_retention_days: 30,
};

const body = {
  from: 'Acme <noreply@acme.example>',
  to: 'jane@recipient.example',
  subject: 'Your code',
  message: '<p>123456</p>',
};

/** A writer whose submissions wait until the test lets each one go. */
class HeldWriter {
  readonly held: { item: AcceptItem; release: (o: AcceptOutcome | Error) => void }[] = [];
  private waiters: (() => void)[] = [];

  submit(item: AcceptItem): Promise<AcceptOutcome> {
    return new Promise((resolve, reject) => {
      this.held.push({ item, release: (o) => (o instanceof Error ? reject(o) : resolve(o)) });
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** Resolves once `n` submissions are held. */
  async holding(n: number): Promise<void> {
    while (this.held.length < n) await new Promise<void>((r) => this.waiters.push(r));
  }
}

/** Idempotency keys as the accept transaction stores them: the answer of an accepted item. */
function readsOf(accepted: Set<AcceptItem>): AcceptReadsRepo {
  return {
    findIdempotencyKey: async (_account: string, key: string) => {
      const item = [...accepted].find((i) => i.idempotency?.key === key);
      return item?.idempotency
        ? { request_hash: item.idempotency.requestHash, response: item.idempotency.response }
        : undefined;
    },
  } as unknown as AcceptReadsRepo;
}

function setup() {
  const writer = new HeldWriter();
  const accepted = new Set<AcceptItem>();
  const service = new AcceptService(
    writer,
    readsOf(accepted),
    {
      verifiedDomains: async () => ['acme.example'],
      expireAfter: async () => null,
      suppression: async () => undefined,
    },
    new ManualClock(Date.UTC(2026, 10, 29)),
  );
  const accept = (key: string) =>
    service.accept({ account, route: 'send', body, idempotencyKey: key } satisfies AcceptRequest);
  return { writer, accepted, accept };
}

describe('an Idempotency-Key repeated while its first request is stored', () => {
  it('answers the repeat 409 idempotency_in_progress and the first one as usual', async () => {
    const { writer, accepted, accept } = setup();
    const first = accept('k1');
    await writer.holding(1);

    const repeat = await accept('k1').catch((e: unknown) => e);
    expect(repeat).toBeInstanceOf(AppError);
    expect((repeat as AppError).code).toBe('idempotency_in_progress');
    expect(writer.held).toHaveLength(1); // the repeat stored nothing

    // Another key is not held up by it.
    const other = accept('k2');
    await writer.holding(2);

    accepted.add(writer.held[0]!.item);
    writer.held[0]!.release({ kind: 'accepted' });
    const answer = await first;
    expect(answer).toMatchObject({ status: 'queued' });

    // Once stored, a repeat is the first answer again, not a second message.
    expect(await accept('k1')).toEqual(answer);
    expect(writer.held).toHaveLength(2);

    writer.held[1]!.release({ kind: 'accepted' });
    await other;
  });

  it('lets the key be used again once a first request that failed to store has answered', async () => {
    const { writer, accepted, accept } = setup();
    const first = accept('k1').catch((e: unknown) => e);
    await writer.holding(1);
    writer.held[0]!.release(new Error('disk full'));
    expect(await first).toBeInstanceOf(Error);

    const again = accept('k1');
    await writer.holding(2);
    accepted.add(writer.held[1]!.item);
    writer.held[1]!.release({ kind: 'accepted' });
    expect(await again).toMatchObject({ status: 'queued' });
  });
});
