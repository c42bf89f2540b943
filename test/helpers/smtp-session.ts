// A raw SMTP session for tests of the receiver's limits: one command at a time, each reply read whole,
// from a chosen loopback source address (127.0.0.5, 127.0.0.6, …) so one test can act as many clients.
import { connect, type Socket } from 'node:net';

export class SmtpSession {
  private buffer = '';
  private readonly replies: string[] = [];
  private waiter: (() => void) | undefined;
  /** Resolves when the server has closed the connection (or it was reset). */
  readonly closed: Promise<void>;
  private ended = false;
  private greeted = false;
  /** The first reply: 220 when admitted, 421 when refused. */
  greeting = '';

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      this.buffer += d;
      // A reply ends with a line "NNN text" (RFC 5321 §4.2.1: "NNN-" lines continue it).
      for (let m; (m = /^((?:\d{3}-[^\r\n]*\r\n)*\d{3}(?: [^\r\n]*)?)\r\n/.exec(this.buffer));) {
        this.replies.push(m[1]!);
        this.buffer = this.buffer.slice(m[0].length);
      }
      this.wake();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        this.ended = true;
        this.wake();
        resolve();
      }),
    );
  }

  /** Connects from `localAddress` and waits for the greeting (or the refusal). */
  static async open(port: number, localAddress = '127.0.0.1'): Promise<SmtpSession> {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    const session = new SmtpSession(socket);
    session.greeting = await session.reply();
    return session;
  }

  /** The next reply; '' once the connection closed without one. */
  async reply(): Promise<string> {
    while (this.replies.length === 0 && !this.ended) {
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
    return this.replies.shift() ?? '';
  }

  /** Sends one command line and returns its reply. */
  async command(line: string): Promise<string> {
    this.socket.write(`${line}\r\n`);
    return this.reply();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  /** Writes raw bytes (message content inside DATA) without waiting for a reply. */
  write(data: string): void {
    this.socket.write(data);
  }

  /**
   * (EHLO once,) MAIL, RCPT and DATA: undefined when the server waits for the message, else the
   * refusal met on the way.
   */
  async begin(from: string, to: string, mailParams = ''): Promise<string | undefined> {
    const lines = [`MAIL FROM:<${from}>${mailParams}`, `RCPT TO:<${to}>`, 'DATA'];
    if (!this.greeted) lines.unshift('EHLO client.test');
    this.greeted = true;
    for (const line of lines) {
      const r = await this.command(line);
      if (!/^(250|354)[ -]/.test(r)) return r;
    }
    return undefined;
  }

  /** The message after `begin`: the reply to its final dot. */
  finish(raw: string): Promise<string> {
    this.write(raw.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..') + '\r\n.\r\n');
    return this.reply();
  }

  /** A whole transaction: the reply to the final dot, or the first refusal on the way. */
  async send(from: string, to: string, raw: string, mailParams = ''): Promise<string> {
    return (await this.begin(from, to, mailParams)) ?? this.finish(raw);
  }

  async quit(): Promise<void> {
    if (!this.ended) this.socket.write('QUIT\r\n');
    await this.closed;
  }

  /** Ends the connection with a TCP reset, as a crashed client or a middlebox would. */
  reset(): Promise<void> {
    this.socket.resetAndDestroy();
    return this.closed;
  }

  /** Closes the client's side without QUIT. */
  hangUp(): Promise<void> {
    this.socket.end();
    return this.closed;
  }
}
