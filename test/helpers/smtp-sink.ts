// A real SMTP server on loopback for tests, whose answers depend on the recipient's local part:
//   bounce…   → 550 5.1.1 at RCPT          defer…  → 451 4.3.0 at RCPT
//   throttle… → 421 4.7.0 at RCPT          reject… → 554 5.6.0 after DATA
//   drop…     → connection dropped during DATA
//   flaky<N>… → 451 for the first N attempts, then accepted
//   hold…     → the reply to "." waits until release(address) (a test acts while the client waits)
//               and is 250, or 451 4.3.0 for holddefer…
// Everything else is accepted. Received messages are kept with their envelope.
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: Buffer;
  secure: boolean;
  user: string | undefined;
  /** When the message was accepted, and over which connection (session id). */
  at: number;
  session: string;
  /** The address the client connected from. */
  clientAddress: string;
}

export type ChaosMove = 'ok' | 'defer' | 'throttle' | 'bounce' | 'drop';

export class SmtpSink {
  readonly received: Received[] = [];
  private server: SMTPServer | undefined;
  private readonly tries = new Map<string, number>();
  /** Messages whose reply to "." is held, by recipient, with the reply that accepts them. */
  private readonly holding = new Map<string, { message: Received; accept: () => void }>();
  port = 0;
  /** Sessions begun (smtp-server's onConnect, after its reverse look-up: not always in arrival order). */
  connections = 0;
  /** TCP connections accepted, counted in the order they arrived. */
  accepted = 0;

  constructor(
    private readonly options: {
      auth?: { user: string; pass: string };
      host?: string;
      /** For recipients `chaos…@`: what to do at RCPT and at the end of DATA, chosen per call. */
      chaos?: () => ChaosMove;
      /** The STARTTLS certificate (PEM, e.g. of test-ca.ts); absent: smtp-server's own self-signed one. */
      tls?: { key: string; cert: string };
      /** The largest message it takes, announced in its EHLO reply (SIZE, RFC 1870). */
      size?: number;
    } = {},
  ) {}

  async start(port = 0): Promise<this> {
    const auth = this.options.auth;
    const options: SMTPServerOptions = {
      logger: false,
      ...(this.options.size !== undefined ? { size: this.options.size } : {}),
      ...(this.options.tls ? { key: this.options.tls.key, cert: this.options.tls.cert } : {}),
      authOptional: !auth,
      ...(auth ? { allowInsecureAuth: true } : { disabledCommands: ['AUTH'] }),
      onAuth: (a, _session, cb) =>
        auth && a.username === auth.user && a.password === auth.pass
          ? cb(null, { user: a.username })
          : cb(new Error('535 5.7.8 authentication failed')),
      onConnect: (_session, cb) => {
        this.connections++;
        cb();
      },
      onRcptTo: (address, _session, cb) => {
        const local = address.address.split('@')[0]!.toLowerCase();
        const fail = (code: number, text: string) =>
          cb(Object.assign(new Error(text), { responseCode: code }));
        if (local.startsWith('bounce')) return fail(550, '5.1.1 <' + address.address + '>: no such user');
        if (local.startsWith('defer')) return fail(451, '4.3.0 temporary failure, try again');
        if (local.startsWith('throttle')) return fail(421, '4.7.0 too many messages, slow down');
        if (local.startsWith('chaos') && this.options.chaos) {
          switch (this.options.chaos()) {
            case 'defer':
              return fail(451, '4.3.0 chaos: try again');
            case 'throttle':
              return fail(421, '4.7.0 chaos: slow down');
            case 'bounce':
              return fail(550, '5.1.1 chaos: no such user');
            case 'drop':
              return this.dropAll();
          }
        }
        const flaky = /^flaky(\d+)/.exec(local);
        if (flaky) {
          const n = (this.tries.get(address.address) ?? 0) + 1;
          this.tries.set(address.address, n);
          if (n <= Number(flaky[1])) return fail(451, `4.3.0 not yet (attempt ${n})`);
        }
        cb();
      },
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        const rcpts = session.envelope.rcptTo.map((r) => r.address);
        if (rcpts.some((r) => r.toLowerCase().startsWith('drop'))) {
          stream.once('data', () => (session as unknown as { _socket?: unknown }) && this.dropAll());
        }
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (rcpts.some((r) => r.toLowerCase().startsWith('chaos')) && this.options.chaos) {
            const move = this.options.chaos();
            // Before the reply to ".": the message is not taken, so it must come again.
            if (move === 'drop') return this.dropAll();
            if (move === 'defer')
              return cb(Object.assign(new Error('4.3.0 chaos: queue full'), { responseCode: 452 }));
            if (move === 'throttle')
              return cb(Object.assign(new Error('4.7.0 chaos: slow down'), { responseCode: 421 }));
          }
          if (rcpts.some((r) => r.toLowerCase().startsWith('reject'))) {
            return cb(Object.assign(new Error('5.6.0 message content rejected'), { responseCode: 554 }));
          }
          const message: Received = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: rcpts,
            raw: Buffer.concat(chunks),
            secure: session.secure,
            user: session.user as string | undefined,
            at: Date.now(),
            session: session.id,
            clientAddress: session.remoteAddress.replace(/^::ffff:/, ''),
          };
          const held = rcpts.find((r) => r.toLowerCase().startsWith('hold'));
          const accept = held?.toLowerCase().startsWith('holddefer')
            ? () => cb(Object.assign(new Error('4.3.0 temporary failure, try again'), { responseCode: 451 }))
            : () => {
                this.received.push(message);
                cb(null, '2.0.0 queued as ' + this.received.length);
              };
          if (held) this.holding.set(held, { message, accept });
          else accept();
        });
      },
    };
    this.server = new SMTPServer(options);
    this.server.on('error', () => undefined);
    this.server.server.on('connection', () => this.accepted++);
    await new Promise<void>((resolve) =>
      this.server!.listen(port, this.options.host ?? '127.0.0.1', resolve),
    );
    this.port = (this.server.server.address() as { port: number }).port;
    return this;
  }

  /** Drops every open connection (simulates a peer dying mid-transaction). */
  dropAll(): void {
    const connections = (this.server as unknown as { connections: Set<{ _socket: { destroy(): void } }> })
      .connections;
    for (const c of connections) c._socket.destroy();
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The message for `address` whose reply to "." is being held, once its data has arrived. */
  held(address: string): Received | undefined {
    return this.holding.get(address)?.message;
  }

  /** Sends the held reply for `address` (250; 451 for holddefer…). */
  release(address: string): void {
    const h = this.holding.get(address);
    if (!h) throw new Error(`no reply held for ${address}`);
    this.holding.delete(address);
    h.accept();
  }

  /** Messages received for a recipient. */
  for(address: string): Received[] {
    return this.received.filter((r) => r.to.includes(address));
  }
}
