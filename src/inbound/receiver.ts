// The bounce and complaint receiver (`txmail inbound`, also inside `serve`): an SMTP server for the
// return-path domains. It refuses at RCPT whatever is not ours (never an open relay, forged bounces
// never stored), limits size and what each client may take (client-limits.ts), and answers 250 only
// once the message is durably stored: processing happens afterwards, and a crash in between is redone
// by the recovery pass.
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { InboundRepo } from '../db/inbound-repo.js';
import type { ReceivedMessage } from '../db/schema.js';
import type { Verp } from '../delivery/verp.js';
import { newId } from '../ids.js';
import {
  ClientLimits,
  DEFAULT_SESSION_LIFETIME_MS,
  DEFAULT_SESSIONS_PER_CLIENT,
  DEFAULT_TRUSTED_NETWORKS,
  LIFETIME_REPLY,
  type ClientLimit,
} from './client-limits.js';
import type { InboundBudget } from './inbound-budget.js';
import { InboundProcessor } from './inbound-processor.js';
import { messageDigest } from './message-digest.js';
import { checkRecipient } from './recipient-policy.js';
import { trustedNetworks, type TrustedNetworks } from '../trusted-networks.js';
import { clientNetwork } from '../client-network.js';
import { MemoryBudget, type MemoryLimits, type TakeOptions } from '../memory-budget.js';
import {
  base64Chars,
  memoryFor,
  storeCopies,
  storedInParts,
  TRUSTED_MEMORY_SHARE,
} from './message-memory.js';

export interface ReceiverOptions {
  host: string;
  port: number;
  /** EHLO/banner name. */
  hostname: string;
  returnPathLabel: string;
  testDomain: string;
  /** Largest message accepted, in bytes (advertised with SIZE, RFC 1870). */
  maxSize: number;
  /** Connections per minute per client IP; 0 = unlimited. */
  connectionsPerMinute: number;
  /** Sessions open at once per client IP (IPv6: per /64); 0 = unlimited; default 10. */
  sessionsPerIp?: number;
  /** Longest a session may last, in milliseconds; 0 = no limit; default 10 minutes. */
  sessionLifetimeMs?: number;
  /** Clients exempt from the per-client limits (addresses, CIDR ranges, named ranges); default loopback. */
  trustedNetworks?: string[];
  /**
   * Bytes of messages being received held in memory at once, in all and per client network (0: no
   * such limit); default none. Past either, the message is not kept and is answered 452 4.3.1.
   */
  memory?: MemoryLimits;
}

export interface ReceiverDeps {
  repo: InboundRepo;
  processor: InboundProcessor;
  verp: Verp;
  clock: Clock;
  logger: Logger;
  /** The hourly budget of messages and bytes per client IP; undefined: none. */
  budget?: InboundBudget;
  /** Told of every refusal by a per-client limit and of every session cut at its lifetime. */
  limited?: (limit: ClientLimit) => void;
}

/** A bounce names one message; a handful of recipients covers batching MTAs without inviting abuse. */
const MAX_RECIPIENTS = 50;
/** Sessions of untrusted clients at once (client-limits.ts shares them out). */
export const UNTRUSTED_SESSIONS = 200;
/**
 * Sessions kept for trusted networks beyond those: the operator's own relays still get in while the
 * internet's clients hold every other slot.
 */
const TRUSTED_SESSIONS = 50;
/**
 * Recipients refused in one session before it is cut with 421: an MTA returning bounces names our own
 * addresses; a client trying address after address is guessing or flooding (50,000 refusals in one
 * write were all answered before).
 */
export const MAX_REFUSED_RECIPIENTS = 20;
const TOO_MANY_REFUSED = '4.7.0 too many refused recipients, closing connection';

/**
 * A command's answer, given from a later turn of the event loop. smtp-server runs the client's next
 * pipelined command inside this callback: answered from a promise's continuation, a whole write of
 * commands (100,000 RCPTs) would run as one chain of microtasks, and the event loop, so the API and
 * the delivery worker beside the receiver, would get no turn until its end (10–30 s).
 */
function answerLater<A extends unknown[]>(cb: (...args: A) => void): (...args: A) => void {
  return (...args) => setImmediate(() => cb(...args));
}

const smtpError = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

// RFC 5321 §4.2.2 452, RFC 3463 x.3.1 ("mail system full"): the sender keeps the message and tries later.
const NO_MEMORY = '4.3.1 insufficient system storage, try again later';
/**
 * A message being received is copied into blocks of this size (a larger chunk gets a block of its own
 * size), and the blocks are what is counted. Kept as they came, the chunks of a message sent a byte a
 * packet, or as lines of single dots (smtp-server hands over each unstuffed line as a chunk of its
 * own, a slice of the read it came in), cost about 110 bytes of heap for every byte or three counted.
 */
const BLOCK = 16 * 1024;
/**
 * Bytes of message data all sessions together take in per turn of the event loop; past it each
 * session's data stream is paused until the next turn, and smtp-server stops reading its socket. At
 * loopback speed libuv hands over up to 32 reads of 64 KiB per socket per turn: eight clients sending
 * 10 MB each held the loop 100–160 ms a turn with the unstuffing and copying alone.
 */
const INGEST_PER_TURN = 1024 * 1024;

export class InboundReceiver {
  private readonly server: SMTPServer;
  private readonly limits: ClientLimits;
  /** Sessions whose message is being stored: a lifetime cut waits for the store's reply. */
  private readonly storing = new Set<string>();
  /** Message data taken in this turn of the loop, and the data streams paused until the next one. */
  private readonly ingest = { bytes: 0, paused: [] as SMTPServerDataStream[] };
  /**
   * Recipients refused so far, by open session (by its id: smtp-server makes a new session object at
   * every RSET, which must not start the count again). Set at connect, deleted at close: an answer that
   * comes after its session closed finds none and adds none.
   */
  private readonly refused = new Map<string, number>();
  /** The bytes of messages being received, in memory (memory-budget.ts). */
  private readonly memory: MemoryBudget;
  /** What each session's message in DATA holds of it, given back when it is answered or the session closes. */
  private readonly holding = new Map<string, { client: string; bytes: number }>();
  private readonly trusted: TrustedNetworks;
  port = 0;

  constructor(
    private readonly options: ReceiverOptions,
    private readonly deps: ReceiverDeps,
  ) {
    this.trusted = trustedNetworks(options.trustedNetworks ?? DEFAULT_TRUSTED_NETWORKS);
    this.limits = new ClientLimits(
      {
        trusted: this.trusted,
        connectionsPerMinute: options.connectionsPerMinute,
        sessionsPerClient: options.sessionsPerIp ?? DEFAULT_SESSIONS_PER_CLIENT,
        lifetimeMs: options.sessionLifetimeMs ?? DEFAULT_SESSION_LIFETIME_MS,
        untrustedSessions: UNTRUSTED_SESSIONS,
      },
      {
        budget: deps.budget,
        now: () => deps.clock.now(),
        limited: (limit, address) => {
          deps.logger.debug({ limit, remoteIp: address }, 'inbound client over a limit');
          deps.limited?.(limit);
        },
      },
    );
    this.memory = new MemoryBudget(options.memory ?? { total: 0, perPeer: 0 });
    this.server = new SMTPServer({
      name: options.hostname,
      banner: 'txmail bounce and complaint receiver',
      logger: false,
      size: options.maxSize,
      maxRecipients: MAX_RECIPIENTS,
      // Bounces trickle in; hundreds of simultaneous sessions are an attack, not a backlog.
      maxClients: UNTRUSTED_SESSIONS + TRUSTED_SESSIONS,
      // Nobody logs in: the only mail accepted is for our own addresses. No certificate is configured for
      // the receiver yet, so no STARTTLS either (hidden only, smtp-server would still answer it, with the
      // sample key it ships, which is public); senders use plain SMTP.
      disabledCommands: ['AUTH', 'STARTTLS'],
      authOptional: true,
      hideSTARTTLS: true,
      disableReverseLookup: true,
      onConnect: (session, cb) => {
        this.refused.set(session.id, 0);
        const refusal = this.limits.connect(session.id, session.remoteAddress, () => this.cut(session.id));
        cb(refusal && smtpError(refusal.code, refusal.message));
      },
      // Called once for every connection that closed, however it ended.
      onClose: (session) => {
        this.limits.end(session.id);
        this.refused.delete(session.id);
        // A message being stored still holds its copies: its answer gives them back.
        if (!this.storing.has(session.id)) this.release(session.id);
      },
      onMailFrom: (address, session, answer) => {
        const cb = answerLater(answer);
        // RFC 1870 §6: the size the client declared; smtp-server has checked it is digits.
        const declared = address.args ? Number(address.args['SIZE'] ?? NaN) : NaN;
        // A declared size that the memory left cannot hold now: said at once (RFC 1870 §6.2's 452).
        const terms = this.memoryTerms(session.remoteAddress);
        if (memoryFor(declared) > this.memory.room(clientNetwork(session.remoteAddress), terms)) {
          return cb(this.noMemory(session.remoteAddress));
        }
        this.limits
          .mailFrom(session.id, session.remoteAddress, Number.isFinite(declared) ? declared : undefined)
          .then(
            (refusal) => cb(refusal && smtpError(refusal.code, refusal.message)),
            (err: unknown) => {
              deps.logger.error({ err }, 'could not read the hourly budget of an inbound client');
              cb(smtpError(451, '4.3.0 temporary failure, try again later'));
            },
          );
      },
      onRcptTo: (address, session, answer) => {
        const cb = answerLater(answer);
        checkRecipient(address.address, {
          verp: deps.verp,
          returnPathLabel: options.returnPathLabel,
          testDomain: options.testDomain,
          isCustomerDomain: (name) => deps.repo.isCustomerDomain(name),
        }).then(
          (verdict) => {
            if (verdict.accept) return cb();
            const before = this.refused.get(session.id);
            if (before === undefined) return cb(smtpError(550, '5.1.1 no such mailbox here'));
            const refused = before + 1;
            this.refused.set(session.id, refused);
            // smtp-server closes the connection after a 421.
            if (refused > MAX_REFUSED_RECIPIENTS) return cb(smtpError(421, TOO_MANY_REFUSED));
            cb(smtpError(550, '5.1.1 no such mailbox here'));
          },
          (err: unknown) => {
            deps.logger.error({ err }, 'could not check an inbound recipient');
            cb(smtpError(451, '4.3.0 temporary failure, try again later'));
          },
        );
      },
      onData: (stream, session, cb) => this.receive(stream, session, cb),
    });
    this.server.on('error', (err) => deps.logger.warn({ err }, 'inbound SMTP error'));
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.removeListener('error', reject);
        resolve();
      });
    });
    this.port = (this.server.server.address() as { port: number }).port;
    return this;
  }

  /** Runs the recovery pass now (it also runs on start and every 30 s). */
  recover(): Promise<number> {
    return this.deps.processor.recover();
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /**
   * Ends a session that outlived its lifetime with 421 (smtp-server closes the connection after a 421),
   * also in the middle of DATA: what it was sending is not stored. A message already being stored is
   * answered first, then the session is cut.
   */
  private cut(id: string): void {
    if (this.storing.has(id)) return;
    for (const connection of this.server.connections) {
      if (connection.id === id) return connection.send(421, LIFETIME_REPLY);
    }
  }

  private receive(
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    done: (err?: Error | null, message?: string) => void,
  ): void {
    // A session that outlived its lifetime while its message was being stored is cut after the reply.
    // From a later turn of the event loop, like every answer (answerLater).
    const cb = answerLater((err?: Error | null, message?: string) => {
      this.storing.delete(session.id);
      this.release(session.id);
      done(err, message);
      if (this.limits.expired(session.id)) this.cut(session.id);
    });
    const held = { client: clientNetwork(session.remoteAddress), bytes: 0 };
    const terms = this.memoryTerms(session.remoteAddress);
    this.holding.set(session.id, held);
    // The message so far: `length` bytes in `blocks`, the last of them filled up to `free` bytes short.
    const blocks: Buffer[] = [];
    let free = 0;
    let length = 0;
    let noMemory = false;
    /** Counts `bytes` more for this message; never once its session's count was given back. */
    const take = (bytes: number): boolean => {
      if (this.holding.get(session.id) !== held || !this.memory.take(held.client, bytes, terms)) return false;
      held.bytes += bytes;
      return true;
    };
    const dropAll = () => {
      blocks.length = 0;
      free = 0;
      length = 0;
      this.release(session.id);
    };
    stream.on('data', (c: Buffer) => {
      this.takenIn(stream, c.length);
      // Past the size limit or the memory's, keep reading (the client is still sending) but stop keeping
      // it, and let go at once what was kept.
      if (noMemory || stream.sizeExceeded) return void (blocks.length > 0 && dropAll());
      let at = 0;
      while (at < c.length) {
        if (free === 0) {
          const size = Math.max(BLOCK, c.length - at);
          if (!take(size)) {
            noMemory = true;
            return dropAll();
          }
          blocks.push(Buffer.allocUnsafe(size));
          free = size;
        }
        const last = blocks[blocks.length - 1]!;
        const n = c.copy(last, last.length - free, at);
        at += n;
        free -= n;
        length += n;
      }
    });
    stream.on('end', () => {
      // An oversized message (RFC 1870 §6): smtp-server only marks it, the answer is ours.
      if (stream.sizeExceeded) return cb(smtpError(552, '5.3.4 message too big'));
      if (noMemory) return cb(this.noMemory(session.remoteAddress));
      if (this.limits.expired(session.id)) return cb(smtpError(421, LIFETIME_REPLY));
      // The copies made to store it are counted too, until the answer. Stored whole: the bytes in one
      // piece and their base64 text (4 characters for 3 bytes), the blocks given back once copied.
      // Written in parts (a large one: db/inbound-repo.ts), the blocks themselves are the message, and
      // only a part and its base64 text are copies (message-memory.ts storeCopies).
      const copies = storeCopies(length);
      if (!take(copies)) {
        dropAll();
        return cb(this.noMemory(session.remoteAddress));
      }
      let pieces: Buffer[];
      if (storedInParts(length)) {
        // The last block cut to what it holds.
        pieces = blocks
          .splice(0)
          .map((b, i, all) => (i === all.length - 1 ? b.subarray(0, b.length - free) : b));
      } else {
        pieces = [Buffer.concat(blocks, length)];
        const copied = held.bytes - copies;
        blocks.length = 0;
        held.bytes -= copied;
        this.memory.give(held.client, copied);
      }
      // What storing it will count against the client's hourly budget: now, while its session is open
      // (read after the fingerprint, a client that hung up after its final dot was counted nothing).
      const charges = this.limits.charges(session.id, length);
      this.storing.add(session.id);
      const now = this.deps.clock.now();
      // Processed at once when the processor has room (inbound-processor.ts MAX_IN_HAND), else stored
      // unleased for the recovery pass.
      const room = this.deps.processor.reserve(base64Chars(length));
      const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
      const rcptTo = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
      const rowWith = (digest: string) => ({
        id: newId(),
        received_at: now,
        remote_ip: session.remoteAddress,
        helo: session.hostNameAppearsAs ?? '',
        mail_from: mailFrom,
        rcpt_to: JSON.stringify(rcptTo),
        size: length,
        status: 'pending' as const,
        attempts: 0,
        lease_expires_at: room ? InboundProcessor.leaseUntil(now) : null,
        lease_owner: room ? this.deps.processor.owner : null,
        processed_at: null,
        outcome: null,
        digest,
      });
      // Stored and counted against the client's hourly budget together: a message past it is never
      // stored. Fingerprinted first (a slice a turn), so a copy sent again is recorded once.
      messageDigest(mailFrom, rcptTo, pieces)
        .then(async (digest) => {
          const row = rowWith(digest);
          await this.storeWithinBudget(session, charges, { ...row, pieces });
          return row;
        })
        .then(
          (row) => {
            cb(null, `2.0.0 received as ${row.id}`);
            if (room) void this.deps.processor.process(row, { pieces }, room);
            else this.deps.processor.wake();
          },
          (err: unknown) => {
            room?.release();
            if (err instanceof BudgetRefusal) return cb(smtpError(err.code, err.message));
            // Not stored, so not accepted: the sender keeps the message and tries again.
            this.deps.logger.error({ err }, 'could not store an inbound message');
            cb(smtpError(451, '4.3.0 temporary failure, try again later'));
          },
        );
    });
  }

  /** Counts data taken in this turn; past INGEST_PER_TURN the stream waits for the next turn. */
  private takenIn(stream: SMTPServerDataStream, bytes: number): void {
    const ingest = this.ingest;
    if (ingest.bytes === 0)
      setImmediate(() => {
        ingest.bytes = 0;
        for (const paused of ingest.paused.splice(0)) paused.resume();
      });
    ingest.bytes += bytes;
    if (ingest.bytes >= INGEST_PER_TURN) {
      stream.pause();
      ingest.paused.push(stream);
    }
  }

  /** What a client's messages are held to: trusted networks to no share, others leave them a part. */
  private memoryTerms(address: string): TakeOptions {
    if (this.trusted(address)) return { perPeer: false };
    return { leave: Math.floor((this.options.memory?.total ?? 0) * TRUSTED_MEMORY_SHARE) };
  }

  /** The refusal of a message the memory cannot hold, told like every per-client limit's. */
  private noMemory(address: string): Error {
    this.deps.logger.debug({ limit: 'memory', remoteIp: address }, 'inbound message over the memory budget');
    this.deps.limited?.('memory');
    return smtpError(452, NO_MEMORY);
  }

  /** Gives back what a session's message held of the memory (once: later calls find nothing). */
  private release(sessionId: string): void {
    const held = this.holding.get(sessionId);
    if (!held) return;
    this.holding.delete(sessionId);
    this.memory.give(held.client, held.bytes);
  }

  /** Sessions open now (the tests wait for a close on it). */
  get openSessions(): number {
    return this.server.connections.size;
  }

  /** Bytes of messages being received held in memory now (the tests read it). */
  get memoryHeld(): number {
    return this.memory.held();
  }

  /** Stores a message counted against its client's hourly budget, or fails with the refusal to answer. */
  private async storeWithinBudget(
    session: SMTPServerSession,
    charges: ReturnType<ClientLimits['charges']>,
    message: ReceivedMessage,
  ): Promise<void> {
    const refused = await this.deps.repo.storeCharged(message, charges, message.received_at);
    if (refused) {
      const refusal = this.limits.noRoom(refused.limit, session.remoteAddress);
      throw new BudgetRefusal(refusal.code, refusal.message);
    }
  }
}

class BudgetRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
