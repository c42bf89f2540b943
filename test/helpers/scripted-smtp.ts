// A hand-written SMTP server on loopback whose replies are exact bytes chosen by the test: what a hostile
// or broken receiving server could send (NUL bytes, bare CR, replies of a megabyte, endless multi-line
// replies). It speaks just enough SMTP for a client to reach RCPT and the end of DATA; everything else
// is answered 250. `reply` decides the answer to the greeting, MAIL FROM, AUTH, RCPT and the final "."
// (default: the ordinary one), given the recipient of the transaction and the client's address.
import net from 'node:net';

export type ScriptedStep = 'greeting' | 'mail' | 'auth' | 'rcpt' | 'data-end';

export class ScriptedSmtpServer {
  /** The raw bytes to answer at a step, CRLF included; undefined: the ordinary 250. */
  reply: (step: ScriptedStep, recipient: string, client: string) => Buffer | string | undefined = () =>
    undefined;
  /** What EHLO announces beside the host name (e.g. `AUTH PLAIN` for a relay that takes a login). */
  extensions: string[] = ['8BITMIME'];
  /** After this many messages in a session, the server answers nothing more on it and keeps it open. */
  silentAfter: number | undefined = undefined;
  /** False: after its 354 the server reads nothing more (a server that stalls mid-content). */
  readsContent = true;
  /** Every AUTH command's arguments as sent (a PLAIN login's base64 credentials). */
  readonly logins: string[] = [];
  /**
   * Awaited before the answer to DATA (the 354): a test holds it to stand for a server slow to take the
   * content, or to do something first.
   */
  beforeData: () => Promise<void> | void = () => undefined;
  /**
   * Awaited before the answer to the final "." (the message is counted as come already): a test holds
   * it to stand for a server slow to say whether it took the message.
   */
  beforeDataEnd: () => Promise<void> | void = () => undefined;
  /** How many times the server has answered DATA, over every session. */
  dataAnswered = 0;
  /**
   * Each session's commands as the client sent them (verbs upper-cased), in order; `ended` once closed;
   * `client` the address the client connected from; `messages` the messages whose final "." came;
   * `contentBytes` what came after the 354s.
   */
  readonly sessions: {
    commands: string[];
    ended: boolean;
    client: string;
    messages: number;
    contentBytes: number;
  }[] = [];
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  /** Listens on `host` at `port` (0: any free one). */
  async start(port = 0, host = '127.0.0.1'): Promise<this> {
    this.server = net.createServer((socket) => this.session(socket));
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private session(socket: net.Socket): void {
    this.sockets.add(socket);
    const client = (socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const record = { commands: [] as string[], ended: false, client, messages: 0, contentBytes: 0 };
    this.sessions.push(record);
    socket.on('close', () => {
      this.sockets.delete(socket);
      record.ended = true;
    });
    socket.on('error', () => undefined); // the client may hang up mid-reply: that is its right
    let recipient = '';
    const answer = (step: ScriptedStep | undefined, ordinary: string) => {
      const custom = step ? this.reply(step, recipient, client) : undefined;
      if (!socket.destroyed) socket.write(custom ?? `${ordinary}\r\n`);
    };
    let buffered = '';
    let inData = false;
    // While the answer to DATA is held, what arrives waits in `buffered`.
    let holding = false;
    answer('greeting', '220 scripted.test ESMTP');
    const onData = () => {
      for (;;) {
        if (holding) return;
        if (inData) {
          const end = buffered.indexOf('\r\n.\r\n');
          if (end < 0) return;
          // The CRLF put before the content at DATA is not the content's.
          record.contentBytes += end - 2;
          record.messages++;
          buffered = buffered.slice(end + 5);
          inData = false;
          holding = true;
          void Promise.resolve(this.beforeDataEnd()).then(() => {
            holding = false;
            answer('data-end', '250 2.0.0 queued');
            onData();
          });
          return;
        }
        const eol = buffered.indexOf('\r\n');
        if (eol < 0) return;
        if (this.silentAfter !== undefined && record.messages >= this.silentAfter) {
          buffered = '';
          return;
        }
        const line = buffered.slice(0, eol);
        buffered = buffered.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        record.commands.push(verb);
        if (verb === 'EHLO')
          answer(
            undefined,
            ['scripted.test', ...this.extensions]
              .map((e, i, all) => `250${i === all.length - 1 ? ' ' : '-'}${e}`)
              .join('\r\n'),
          );
        else if (verb === 'MAIL') answer('mail', '250 2.1.0 ok');
        else if (verb === 'AUTH') {
          this.logins.push(line.slice(5));
          answer('auth', '235 2.7.0 authenticated');
        } else if (verb === 'RCPT') {
          recipient = /<([^>]*)>/.exec(line)?.[1] ?? '';
          answer('rcpt', '250 2.1.5 ok');
        } else if (verb === 'DATA') {
          inData = true;
          // The data may follow at once: "\r\n.\r\n" is searched from the start of what follows.
          buffered = `\r\n${buffered}`;
          holding = true;
          void Promise.resolve(this.beforeData()).then(() => {
            holding = false;
            this.dataAnswered++;
            answer(undefined, '354 go ahead');
            if (!this.readsContent) {
              socket.pause();
              return;
            }
            onData();
          });
          return;
        } else if (verb === 'QUIT') {
          answer(undefined, '221 bye');
          socket.end();
          return;
        } else answer(undefined, '250 ok');
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      onData();
    });
  }
}
