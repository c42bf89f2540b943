// The bounce and complaint receiver (`txmail inbound`, also inside `serve`): an SMTP server for the
// return-path domains. It refuses at RCPT whatever is not ours (never an open relay, forged bounces
// never stored), limits size and connection rate, and answers 250 only once the message is durably
// stored: processing happens afterwards, and a crash in between is redone by the recovery pass.
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { InboundRepo } from '../db/inbound-repo.js';
import type { Verp } from '../delivery/verp.js';
import { newId } from '../ids.js';
import { ConnectionLimiter } from './connection-limiter.js';
import { InboundProcessor } from './inbound-processor.js';
import { checkRecipient } from './recipient-policy.js';

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
}

export interface ReceiverDeps {
  repo: InboundRepo;
  processor: InboundProcessor;
  verp: Verp;
  clock: Clock;
  logger: Logger;
}

/** A bounce names one message; a handful of recipients covers batching MTAs without inviting abuse. */
const MAX_RECIPIENTS = 50;
const MAX_CLIENTS = 200;

const smtpError = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

export class InboundReceiver {
  private readonly server: SMTPServer;
  private readonly limiter: ConnectionLimiter;
  port = 0;

  constructor(
    private readonly options: ReceiverOptions,
    private readonly deps: ReceiverDeps,
  ) {
    this.limiter = new ConnectionLimiter(options.connectionsPerMinute, () => deps.clock.now());
    this.server = new SMTPServer({
      name: options.hostname,
      banner: 'txmail bounce and complaint receiver',
      logger: false,
      size: options.maxSize,
      maxRecipients: MAX_RECIPIENTS,
      // Bounces trickle in; hundreds of simultaneous sessions are an attack, not a backlog.
      maxClients: MAX_CLIENTS,
      // Nobody logs in: the only mail accepted is for our own addresses.
      disabledCommands: ['AUTH'],
      authOptional: true,
      // No certificate is configured for the receiver yet; senders fall back to plain SMTP.
      hideSTARTTLS: true,
      disableReverseLookup: true,
      onConnect: (session, cb) => {
        if (this.limiter.admit(session.remoteAddress)) return cb();
        cb(smtpError(421, '4.7.0 too many connections from your address, try again later'));
      },
      onRcptTo: (address, _session, cb) => {
        checkRecipient(address.address, {
          verp: deps.verp,
          returnPathLabel: options.returnPathLabel,
          testDomain: options.testDomain,
          isCustomerDomain: (name) => deps.repo.isCustomerDomain(name),
        }).then(
          (verdict) => (verdict.accept ? cb() : cb(smtpError(550, '5.1.1 no such mailbox here'))),
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

  private receive(
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    cb: (err?: Error | null, message?: string) => void,
  ): void {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => {
      // Past the limit, keep reading (the client is still sending) but stop keeping it.
      if (!stream.sizeExceeded) chunks.push(c);
    });
    stream.on('end', () => {
      // smtp-server answers 552 itself for an oversized message (RFC 1870 §6).
      if (stream.sizeExceeded) return cb(smtpError(552, '5.3.4 message too big'));
      const raw = Buffer.concat(chunks);
      const now = this.deps.clock.now();
      const row = {
        id: newId(),
        received_at: now,
        remote_ip: session.remoteAddress,
        helo: session.hostNameAppearsAs ?? '',
        mail_from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        rcpt_to: JSON.stringify(session.envelope.rcptTo.map((r) => r.address.toLowerCase())),
        size: raw.length,
        raw: raw.toString('base64'),
        status: 'pending' as const,
        attempts: 0,
        lease_expires_at: InboundProcessor.leaseUntil(now),
        processed_at: null,
        outcome: null,
      };
      this.deps.repo.store(row).then(
        () => {
          cb(null, `2.0.0 received as ${row.id}`);
          void this.deps.processor.process(row);
        },
        (err: unknown) => {
          // Not stored, so not accepted: the sender keeps the message and tries again.
          this.deps.logger.error({ err }, 'could not store an inbound message');
          cb(smtpError(451, '4.3.0 temporary failure, try again later'));
        },
      );
    });
  }
}
