// The receiver's per-client limits over real SMTP sessions, each client a loopback source address of
// its own (127.0.0.5, 127.0.0.6, …): open sessions per address, the session lifetime, the hourly budget
// of messages and bytes (stored, so on both databases, shared by every receiver on one database), and
// the trusted networks exempt from all of them. Loopback is trusted by default, so every receiver here
// trusts only 127.0.0.9.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import pino from 'pino';
import type { InboundRepo } from '../src/db/inbound-repo.js';
import { Verp } from '../src/delivery/verp.js';
import type { InboundBudget } from '../src/inbound/inbound-budget.js';
import type { InboundProcessor } from '../src/inbound/inbound-processor.js';
import { RAW_PART_COPIES } from '../src/inbound/message-memory.js';
import { InboundReceiver, UNTRUSTED_SESSIONS } from '../src/inbound/receiver.js';
import { databaseKinds } from './helpers/databases.js';
import { startTestEnv, type TestEnv } from './helpers/services.js';
import { receiverOptions } from './helpers/receiver-options.js';
import { SmtpSession } from './helpers/smtp-session.js';
import { until } from './helpers/wait.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;
const TO = 'fbl@test.txmail.example';
const TRUSTED = '127.0.0.9';
const HOUR = 3_600_000;

const baseEnv = {
  TXMAIL_TEST_DOMAIN: 'test.txmail.example',
  TXMAIL_INBOUND_HOST: '127.0.0.1',
  TXMAIL_INBOUND_TRUSTED_NETWORKS: TRUSTED,
  // The connection rate has tests of its own (inbound-policy.test.ts); here it would only add noise.
  TXMAIL_INBOUND_CONNECTIONS_PER_MINUTE: '0',
};

/** A feedback report of about `bytes` bytes (its exact size in KiB is what the budget counts). */
const report = (bytes = 400) => {
  const head = `From: fbl@remote.example\r\nTo: ${TO}\r\nSubject: report\r\n\r\n`;
  return head + 'x'.repeat(Math.max(0, bytes - head.length - 2));
};

/** Opens sessions from `address` until `n` were admitted (slots freed a moment ago may still be held). */
async function admitted(port: number, address: string, n: number): Promise<SmtpSession[]> {
  const sessions: SmtpSession[] = [];
  await until(
    `${n} sessions admitted from ${address}`,
    async () => {
      const s = await SmtpSession.open(port, address);
      if (s.greeting.startsWith('220 ')) sessions.push(s);
      else await s.closed;
      return sessions.length === n ? true : undefined;
    },
    10_000,
  );
  return sessions;
}

const quitAll = (sessions: SmtpSession[]) => Promise.all(sessions.map((s) => s.quit()));

/** The value of one series of txmail_inbound_limited_total. */
async function limitedCount(env: TestEnv, limit: string): Promise<number> {
  const metric = await env.services.metrics.registry.getSingleMetric('txmail_inbound_limited_total')!.get();
  return metric.values.find((v) => v.labels.limit === limit)?.value ?? 0;
}

describe('open sessions per client address', () => {
  let env: TestEnv;
  let receiver: InboundReceiver;

  beforeAll(async () => {
    env = await startTestEnv(sqlite, { env: baseEnv });
    receiver = await env.services.startInbound({ port: 0 });
  });
  afterAll(() => env?.close());

  it('refuses the 11th open session from one address with 421 while another address still connects', async () => {
    const held = await Promise.all(
      Array.from({ length: 10 }, () => SmtpSession.open(receiver.port, '127.0.0.5')),
    );
    expect(held.map((s) => s.greeting.slice(0, 4))).toEqual(Array(10).fill('220 '));
    const eleventh = await SmtpSession.open(receiver.port, '127.0.0.5');
    expect(eleventh.greeting).toBe('421 4.7.0 too many open sessions from your address, try again later');
    await eleventh.closed;
    const other = await SmtpSession.open(receiver.port, '127.0.0.6');
    expect(other.greeting).toMatch(/^220 /);
    expect(await held[0]!.command('NOOP')).toMatch(/^250 /);
    expect(await limitedCount(env, 'sessions')).toBe(1);
    await quitAll([...held, other]);
  });

  it('frees a slot however the session ends: QUIT, reset, hang-up, protocol error, 421', async () => {
    const address = '127.0.0.7';
    const held = await admitted(receiver.port, address, 10);
    await held[0]!.quit();
    await held[1]!.quit();
    await held[2]!.reset();
    await held[3]!.reset();
    await held[4]!.hangUp();
    await held[5]!.hangUp();
    // A command line longer than smtp-server takes: it answers 421 and closes.
    held[6]!.write('X'.repeat(20_000));
    expect(await held[6]!.reply()).toMatch(/^421 /);
    await held[6]!.closed;
    // Ten unknown commands: smtp-server gives up on the client.
    for (let i = 0; i < 10; i++) held[7]!.write('BOGUS\r\n');
    await held[7]!.closed;
    await held[8]!.quit();
    await held[9]!.reset();
    // Every slot comes back: ten sessions from the address again, and the eleventh refused.
    const again = await admitted(receiver.port, address, 10);
    const eleventh = await SmtpSession.open(receiver.port, address);
    expect(eleventh.greeting).toMatch(/^421 4\.7\.0 /);
    await quitAll(again);
  });

  it(`shares the ${UNTRUSTED_SESSIONS} untrusted sessions out as they fill, and keeps room for trusted networks beyond them`, async () => {
    // Addresses 127.0.1.x each take what they are let: their share shrinks as the pool fills.
    const held: SmtpSession[] = [];
    const perAddress: number[] = [];
    for (let host = 1; held.length < UNTRUSTED_SESSIONS && host < 250; host++) {
      // Ten at once, the most any address is let (a greeting takes a tenth of a second).
      const tries = await Promise.all(
        Array.from({ length: 10 }, () => SmtpSession.open(receiver.port, `127.0.1.${host}`)),
      );
      const admitted = tries.filter((s) => s.greeting.startsWith('220 '));
      await Promise.all(tries.filter((s) => !admitted.includes(s)).map((s) => s.closed));
      held.push(...admitted);
      perAddress.push(admitted.length);
    }
    expect(held).toHaveLength(UNTRUSTED_SESSIONS);
    // With a fixed ten each, 20 addresses held them all; the first still had ten.
    expect(perAddress[0]).toBe(10);
    expect(perAddress.length).toBeGreaterThanOrEqual(40);
    expect(perAddress.at(-1)).toBe(1);
    // Full: a new address is refused, a trusted one still comes in.
    const stranger = await SmtpSession.open(receiver.port, '127.0.2.1');
    expect(stranger.greeting).toBe('421 4.7.0 too many sessions open, try again later');
    await stranger.closed;
    const trusted = await SmtpSession.open(receiver.port, TRUSTED);
    expect(trusted.greeting).toMatch(/^220 /);
    await quitAll([...held, trusted]);
  });

  it('lets a trusted address hold more sessions than the limit', async () => {
    const held = await Promise.all(
      Array.from({ length: 15 }, () => SmtpSession.open(receiver.port, TRUSTED)),
    );
    expect(held.every((s) => s.greeting.startsWith('220 '))).toBe(true);
    await quitAll(held);
  });
});

describe('the session lifetime', () => {
  let env: TestEnv;
  let receiver: InboundReceiver;

  beforeAll(async () => {
    env = await startTestEnv(sqlite, {
      env: {
        ...baseEnv,
        TXMAIL_INBOUND_SESSION_LIFETIME: '1s',
        // One slot per address: a session cut at its lifetime must give it back.
        TXMAIL_INBOUND_SESSIONS_PER_IP: '1',
      },
    });
    receiver = await env.services.startInbound({ port: 0 });
  });
  afterAll(() => env?.close());

  const stored = async (address: string) => (await env.inboundFrom(address)).length;

  it('cuts a session that keeps itself alive with NOOP at its lifetime with 421 4.4.2, and frees its slot', async () => {
    const address = '127.0.0.5';
    const s = await SmtpSession.open(receiver.port, address);
    expect((await SmtpSession.open(receiver.port, address)).greeting).toMatch(/^421 4\.7\.0 /);
    const replies: string[] = [];
    // NOOP every 100 ms, bounded: the session is cut long before the last one.
    for (let i = 0; i < 100; i++) {
      replies.push(await s.command('NOOP'));
      if (!replies.at(-1)!.startsWith('250 ')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(replies.at(-1)).toBe('421 4.4.2 session lasted too long, closing; continue in a new one');
    expect(replies.filter((r) => r.startsWith('250 ')).length).toBeGreaterThan(0);
    await s.closed;
    await quitAll(await admitted(receiver.port, address, 1));
    expect(await limitedCount(env, 'lifetime')).toBeGreaterThanOrEqual(1);
  });

  it('cuts a session in the middle of DATA and stores nothing of it', async () => {
    const address = '127.0.0.6';
    const s = await SmtpSession.open(receiver.port, address);
    expect(await s.begin('', TO)).toBeUndefined();
    const reply = s.reply();
    s.write(`From: slow@remote.example\r\nTo: ${TO}\r\nSubject: slow\r\n\r\n`);
    let ended = false;
    void s.closed.then(() => (ended = true));
    for (let i = 0; i < 100 && !ended; i++) {
      s.write(`line ${i}\r\n`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(ended).toBe(true);
    expect(await reply).toMatch(/^421 4\.4\.2 /);
    await s.closed;
    expect(await stored(address)).toBe(0);
  });

  it("leaves a trusted client's session open past the lifetime", async () => {
    const trusted = await SmtpSession.open(receiver.port, TRUSTED);
    // Opened after the trusted session: once it is cut, the trusted one is older than the lifetime.
    const untrusted = await SmtpSession.open(receiver.port, '127.0.0.7');
    expect(await untrusted.reply()).toMatch(/^421 4\.4\.2 /);
    expect(await trusted.command('NOOP')).toMatch(/^250 /);
    expect(await trusted.send('', TO, report())).toMatch(/^250 /);
    await trusted.quit();
  });
});

describe.each(databaseKinds)('the hourly budget per client address on $name', (kind) => {
  const clock = new ManualClock();
  const env = {
    ...baseEnv,
    TXMAIL_INBOUND_HOURLY_MESSAGES: '3',
    TXMAIL_INBOUND_HOURLY_BYTES: '8K',
  };
  let a: TestEnv;
  let receiver: InboundReceiver;

  beforeAll(async () => {
    a = await startTestEnv(kind, { env, clock });
    receiver = await a.services.startInbound({ port: 0 });
  });
  afterAll(() => a?.close());

  const stored = async (address: string) => (await a.inboundFrom(address)).length;

  it('refuses the message past the hourly count at MAIL FROM with 421, stores nothing of it, and takes mail an hour later', async () => {
    const address = '127.0.0.5';
    const s = await SmtpSession.open(receiver.port, address);
    for (let i = 0; i < 3; i++) expect(await s.send('', TO, report())).toMatch(/^250 /);
    expect(await s.command('MAIL FROM:<>')).toBe(
      '421 4.7.0 too much mail from your address this hour, try again later',
    );
    await s.closed;
    expect(await stored(address)).toBe(3);
    expect(await limitedCount(a, 'hourly_messages')).toBe(1);

    const other = await SmtpSession.open(receiver.port, '127.0.0.6');
    expect(await other.send('', TO, report())).toMatch(/^250 /);
    await other.quit();

    clock.advance(HOUR);
    const later = await SmtpSession.open(receiver.port, address);
    expect(await later.send('', TO, report())).toMatch(/^250 /);
    await later.quit();
    expect(await stored(address)).toBe(4);
  });

  it('stores no more than the budget when sessions of one address race for it', async () => {
    const address = '127.0.0.7';
    const sessions = await Promise.all(
      Array.from({ length: 8 }, () => SmtpSession.open(receiver.port, address)),
    );
    // Every session passes MAIL FROM before any message is counted: the race is decided after DATA.
    expect(await Promise.all(sessions.map((s) => s.begin('', TO)))).toEqual(Array(8).fill(undefined));
    const replies = await Promise.all(sessions.map((s) => s.finish(report())));
    expect(replies.filter((r) => r.startsWith('250 '))).toHaveLength(3);
    expect(replies.filter((r) => !r.startsWith('250 '))).toEqual(
      Array(5).fill('452 4.7.0 too much mail from your address this hour, try again later'),
    );
    expect(await stored(address)).toBe(3);
    await quitAll(sessions);
  });

  it('refuses by bytes: at MAIL FROM when SIZE declares too much, after DATA when it did not', async () => {
    const address = '127.0.0.8';
    const s = await SmtpSession.open(receiver.port, address);
    expect(await s.send('', TO, report(5000))).toMatch(/^250 /); // 5 KiB of 8
    expect(await s.command('MAIL FROM:<> SIZE=4000')).toMatch(/^452 4\.7\.0 /);
    expect(await s.send('', TO, report(4000))).toBe(
      '452 4.7.0 too much mail from your address this hour, try again later',
    );
    expect(await s.command('RSET')).toMatch(/^250 /);
    expect(await s.send('', TO, report(3000), ' SIZE=3000')).toMatch(/^250 /); // 8 KiB of 8
    expect(await s.command('MAIL FROM:<>')).toMatch(/^421 4\.7\.0 /);
    await s.closed;
    expect(await stored(address)).toBe(2);
    expect(await limitedCount(a, 'hourly_bytes')).toBe(3);
  });

  it('shares the budget between every receiver on the database', async () => {
    const b = await startTestEnv(kind, { env, clock, database: a.database });
    try {
      const other = await b.services.startInbound({ port: 0 });
      const address = '127.0.0.10';
      const first = await SmtpSession.open(receiver.port, address);
      for (let i = 0; i < 2; i++) expect(await first.send('', TO, report())).toMatch(/^250 /);
      await first.quit();
      const second = await SmtpSession.open(other.port, address);
      expect(await second.send('', TO, report())).toMatch(/^250 /);
      expect(await second.command('MAIL FROM:<>')).toMatch(/^421 4\.7\.0 /);
      expect(await stored(address)).toBe(3);
    } finally {
      await b.close();
    }
  });

  it('exempts a trusted address from the budget', async () => {
    const s = await SmtpSession.open(receiver.port, TRUSTED);
    for (let i = 0; i < 6; i++) expect(await s.send('', TO, report(5000))).toMatch(/^250 /);
    await s.quit();
    expect(await stored(TRUSTED)).toBe(6);
  });
});

describe('the memory messages being received may hold', () => {
  let env: TestEnv;
  let receiver: InboundReceiver;
  const NO_MEMORY = '452 4.3.1 insufficient system storage, try again later';

  beforeAll(async () => {
    // Untrusted clients leave an eighth of the whole (512K) to the trusted networks.
    env = await startTestEnv(sqlite, {
      env: { ...baseEnv, TXMAIL_INBOUND_MEMORY: '4M', TXMAIL_INBOUND_MEMORY_PER_IP: '1M' },
    });
    receiver = await env.services.startInbound({ port: 0 });
  });
  afterAll(() => env?.close());

  /** A session from `address` in the middle of DATA, having sent `bytes` of a report. */
  const holding = async (address: string, bytes: number) => {
    const s = await SmtpSession.open(receiver.port, address);
    expect(await s.begin('', TO)).toBeUndefined();
    const before = receiver.memoryHeld;
    s.write(report(bytes + 1000).slice(0, bytes));
    await until(
      'the receiver to hold what was sent',
      async () => receiver.memoryHeld >= before + bytes - 1024 || undefined,
    );
    return s;
  };

  it("refuses a client's message past its share with 452 4.3.1, keeps nothing of it, and takes mail once it is answered", async () => {
    const address = '127.0.0.41';
    const held = await holding(address, 800 * 1024);
    // A declared size whose copies (as received, in one piece, in base64) the share cannot hold: at once.
    const declared = await SmtpSession.open(receiver.port, address);
    expect(await declared.begin('', TO, ' SIZE=100000')).toBe(NO_MEMORY);
    // Undeclared: after the data, none of which was kept.
    expect(await declared.send('', TO, report(300 * 1024))).toBe(NO_MEMORY);
    // Another client's message is taken meanwhile.
    const other = await SmtpSession.open(receiver.port, '127.0.0.42');
    expect(await other.send('', TO, report(100 * 1024))).toMatch(/^250 /);
    // The held message's bytes come back however its session ends, and the client's mail is taken again.
    await held.hangUp();
    await until('the held bytes given back', async () => receiver.memoryHeld === 0 || undefined);
    expect(await declared.send('', TO, report(200 * 1024), ' SIZE=204800')).toMatch(/^250 /);
    expect(receiver.memoryHeld).toBe(0);
    await quitAll([declared, other]);
    expect((await env.inboundFrom(address)).length).toBe(1);
    // Both refusals are counted like every per-client limit's.
    expect(await limitedCount(env, 'memory')).toBe(2);
  });

  it('refuses past the whole budget whichever untrusted client sends, and keeps room for the trusted', async () => {
    // One after the other: each waits for its own bytes, not another's.
    const held: SmtpSession[] = [];
    for (const a of ['127.0.0.43', '127.0.0.44', '127.0.0.45', '127.0.0.46'])
      held.push(await holding(a, 850 * 1024));
    const late = await SmtpSession.open(receiver.port, '127.0.0.47');
    expect(await late.send('', TO, report(100 * 1024))).toBe(NO_MEMORY);
    // A trusted relay is held to no share, and gets the part the others leave.
    const relay = await SmtpSession.open(receiver.port, TRUSTED);
    expect(await relay.send('', TO, report(100 * 1024))).toMatch(/^250 /);
    await Promise.all(held.map((s) => s.hangUp()));
    await until('the held bytes given back', async () => receiver.memoryHeld === 0 || undefined);
    expect(await late.send('', TO, report(100 * 1024))).toMatch(/^250 /);
    // Trusted: more than an untrusted client's share at once.
    expect(await relay.send('', TO, report(1100 * 1024), ' SIZE=1126400')).toMatch(/^250 /);
    await quitAll([late, relay]);
  });
});

describe('a message whose client hangs up after its final dot', () => {
  it('is counted against the memory until it is answered, and against the hourly budget', async () => {
    let finishStore: () => void = () => undefined;
    const stores: { charges: number }[] = [];
    const repo = {
      isCustomerDomain: async () => false,
      storeCharged: async (_message: unknown, charges: unknown[]) => {
        stores.push({ charges: charges.length });
        await new Promise<void>((resolve) => (finishStore = resolve));
        return undefined;
      },
    } as unknown as InboundRepo;
    const logger = pino({ level: 'silent' });
    const clock = new ManualClock();
    const budget = {
      room: async () => ({ ok: true }),
      charges: (client: string, size: number) => [{ limit: 'messages', key: client, amount: size }],
    } as unknown as InboundBudget;
    const processor = {
      reserve: () => undefined,
      wake: () => undefined,
      owner: 'test',
    } as unknown as InboundProcessor;
    const receiver = await new InboundReceiver(
      receiverOptions({
        trustedNetworks: [TRUSTED],
        memory: { total: 4 * 1024 * 1024, perPeer: 1024 * 1024 },
      }),
      { repo, processor, verp: new Verp(Buffer.alloc(32, 7)), clock, logger, budget },
    ).listen();
    try {
      const s = await SmtpSession.open(receiver.port, '127.0.0.49');
      expect(await s.begin('', TO)).toBeUndefined();
      s.write(report(100 * 1024).replace(/\r?\n/g, '\r\n') + '\r\n.\r\n');
      await s.hangUp();
      await until('the store to begin', async () => stores.length === 1 || undefined);
      // The session is gone; its message (100 KiB: stored whole), in one piece and in base64, is still
      // in memory.
      await until('the session closed', async () => receiver.openSessions === 0 || undefined);
      expect(receiver.memoryHeld).toBeGreaterThan(200 * 1024);
      expect(stores[0]!.charges).toBe(1);
      finishStore();
      await until('the bytes given back', async () => receiver.memoryHeld === 0 || undefined);
    } finally {
      await receiver.close();
    }
  });
});

describe('taking in message data', () => {
  it('takes in about a MiB a turn of the loop from all sessions together, and loses nothing', async () => {
    const stored: number[] = [];
    const repo = {
      isCustomerDomain: async () => false,
      storeCharged: async (message: { size: number }) => {
        stored.push(message.size);
        return undefined;
      },
    } as unknown as InboundRepo;
    const budget = {
      room: async () => ({ ok: true }),
      charges: () => [],
    } as unknown as InboundBudget;
    const processor = {
      reserve: () => undefined,
      wake: () => undefined,
      owner: 'test',
    } as unknown as InboundProcessor;
    const clients = ['127.0.0.71', '127.0.0.72', '127.0.0.73', '127.0.0.74'];
    const receiver = await new InboundReceiver(
      receiverOptions({
        trustedNetworks: clients,
        maxSize: 8 * 1024 * 1024,
        memory: { total: 256 * 1024 * 1024, perPeer: 64 * 1024 * 1024 },
      }),
      {
        repo,
        processor,
        verp: new Verp(Buffer.alloc(32, 7)),
        clock: new ManualClock(),
        logger: pino({ level: 'silent' }),
        budget,
      },
    ).listen();
    // An immediate queued by an immediate runs in the next iteration: between two runs of `tick`, what
    // one iteration took in.
    let most = 0;
    let seen = 0;
    let on = true;
    const tick = () => {
      const held = receiver.memoryHeld;
      most = Math.max(most, held - seen);
      seen = held;
      if (on) setImmediate(tick);
    };
    try {
      const sessions = await Promise.all(clients.map((a) => SmtpSession.open(receiver.port, a)));
      for (const s of sessions) expect(await s.begin('', TO)).toBeUndefined();
      const raw = report(6 * 1024 * 1024).replace(/\r?\n/g, '\r\n');
      setImmediate(tick);
      const answers = await Promise.all(sessions.map((s) => s.finish(raw)));
      on = false;
      expect(answers.every((a) => a.startsWith('250 '))).toBe(true);
      expect(stored).toEqual(clients.map(() => Buffer.byteLength(raw) + 2));
      // A MiB, the one chunk (at most 64 KiB, in a block of its own size) each session may hand over
      // after the turn's MiB is spent, and a part's copies counted at a message's end. Before: up to 32
      // reads of 64 KiB a socket a turn (8 MiB in one turn here).
      expect(most).toBeLessThanOrEqual(1024 * 1024 + clients.length * 80 * 1024 + RAW_PART_COPIES);
      await quitAll(sessions);
    } finally {
      on = false;
      await receiver.close();
    }
  });
});
