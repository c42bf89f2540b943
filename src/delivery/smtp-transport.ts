// SMTP delivery over reused connections, pooled per (source IP, destination address, port). This is the
// only file that talks to nodemailer's SMTP client.
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { peerText } from '../peer-text.js';
import { classifyReply } from './classify-reply.js';
import type { AttemptResult, DeliveryJob, DeliveryTarget, Transport } from './transport.js';

/**
 * The largest reply read from a server, all lines of a multi-line reply together. RFC 5321 §4.5.3.1.5
 * allows 512 octets per line and real replies (EHLO's is the longest) stay far below this; a server that
 * keeps a reply going past it loses the connection (the attempt is deferred) instead of filling memory.
 */
export const MAX_REPLY_BYTES = 64 * 1024;
/** The part of a reply that is classified and kept with the attempt (the log, events, webhooks). */
export const MAX_REPLY_TEXT = 2048;

export interface SmtpTransportOptions {
  /** EHLO name. */
  hostname: string;
  /** Messages sent over one connection before it is closed, unless the target says (DESIGN.md §5). */
  maxMessagesPerConnection?: number;
  /** An idle pooled connection is closed after this long. */
  idleMs?: number;
  connectTimeoutMs?: number;
  /** Inactivity limit during a transaction (also the wait for the reply to the final "."). */
  socketTimeoutMs?: number;
}

interface PooledConnection {
  conn: SMTPConnection;
  key: string;
  sent: number;
  maxMessages: number;
  idleTimer?: NodeJS.Timeout;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
}

export class SmtpTransport implements Transport {
  private readonly idle = new Map<string, PooledConnection[]>();
  private readonly maxMessages: number;
  private readonly idleMs: number;
  private closed = false;

  constructor(private readonly options: SmtpTransportOptions) {
    this.maxMessages = options.maxMessagesPerConnection ?? 100;
    this.idleMs = options.idleMs ?? 30_000;
  }

  async deliver(job: DeliveryJob, targets: DeliveryTarget[], sourceIp?: string): Promise<AttemptResult> {
    let last: AttemptResult | undefined;
    for (const target of targets) {
      const { result, tryNext } = await this.deliverTo(job, target, sourceIp);
      if (!tryNext) return result;
      last = result;
    }
    return (
      last ?? {
        outcome: 'deferred',
        smtpCode: null,
        enhanced: '4.4.1',
        reply: 'no host to deliver to',
        remoteHost: null,
        remoteIp: null,
        tls: false,
        throttled: false,
        greylisted: false,
        category: 'network_error',
        reason: 'no mail host to deliver to',
      }
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const list of this.idle.values()) for (const p of list) this.discard(p, true);
    this.idle.clear();
  }

  /**
   * One target over a pooled or new connection. `tryNext`: the host could not be reached or refused the
   * session before the message, so the next MX host should be tried (RFC 5321 §5.1).
   */
  private async deliverTo(
    job: DeliveryJob,
    target: DeliveryTarget,
    sourceIp: string | undefined,
  ): Promise<{ result: AttemptResult; tryNext: boolean }> {
    const key = `${sourceIp ?? ''}|${target.address}|${target.port}`;
    // A pooled connection may have been closed by the server since: if it fails before the message
    // was handed over, that says nothing about this message; retry once on a fresh connection.
    for (let fresh = false; ; fresh = true) {
      let pooled = fresh ? undefined : this.takeIdle(key);
      if (!pooled) {
        try {
          pooled = {
            conn: await this.open(target, sourceIp),
            key,
            sent: 0,
            maxMessages: target.maxMessages ?? this.maxMessages,
          };
        } catch (err) {
          const result = this.errorResult(err as SmtpError, target, undefined);
          return { result, tryNext: result.outcome !== 'bounced' };
        }
      }
      const reused = pooled.sent > 0;
      const outcome = await this.send(pooled, job);
      if (outcome.ok) {
        pooled.sent++;
        this.release(pooled);
        const reply = peerText(outcome.response.trim(), MAX_REPLY_TEXT);
        const code = Number(/^(\d{3})/.exec(reply)?.[1] ?? 250);
        return { result: this.result(code, reply, target, pooled.conn), tryNext: false };
      }
      const err = outcome.err;
      if (reused && !fresh && err.responseCode === undefined) {
        this.discard(pooled);
        continue;
      }
      const result = this.errorResult(err, target, pooled.conn);
      if ((err.code === 'EENVELOPE' || err.code === 'EMESSAGE') && !result.throttled) {
        // The server refused or deferred this message (a greylisting reply too: it is about this
        // recipient, not the session); the connection itself is fine: RSET and keep it. Like every
        // pooled connection it ends with QUIT when it is released (discard, polite).

        pooled.sent++;
        pooled.conn.reset((resetErr) => (resetErr ? this.discard(pooled!) : this.release(pooled!)));
      } else {
        this.discard(pooled);
      }
      return { result, tryNext: false };
    }
  }

  private open(target: DeliveryTarget, sourceIp: string | undefined): Promise<SMTPConnection> {
    const conn = new SMTPConnection({
      host: target.address,
      port: target.port,
      secure: target.secure,
      ...(target.host !== target.address ? { servername: target.host } : {}),
      name: this.options.hostname,
      ...(sourceIp ? { localAddress: sourceIp } : {}),
      connectionTimeout: this.options.connectTimeoutMs ?? 30_000,
      greetingTimeout: this.options.connectTimeoutMs ?? 30_000,
      socketTimeout: this.options.socketTimeoutMs ?? 120_000,
      socketCloseTimeout: 0,
      maxResponseSize: MAX_REPLY_BYTES,
      // Opportunistic STARTTLS (RFC 3207) without certificate checks: most MX certificates do not
      // match their names, and refusing them would send the mail in clear text instead.
      opportunisticTLS: true,
      tls: { rejectUnauthorized: false },
      allowInternalNetworkInterfaces: true,
    });
    return new Promise((resolve, reject) => {
      const fail = (err: Error) => {
        conn.close();
        reject(err);
      };
      conn.once('error', fail);
      conn.connect((err) => {
        if (err) return fail(err);
        if (!target.auth) {
          conn.removeListener('error', fail);
          conn.on('error', () => undefined); // errors of an idle connection surface on its next use
          return resolve(conn);
        }
        conn.login(target.auth, (loginErr) => {
          if (loginErr) return fail(loginErr);
          conn.removeListener('error', fail);
          conn.on('error', () => undefined);
          resolve(conn);
        });
      });
    });
  }

  private send(
    pooled: PooledConnection,
    job: DeliveryJob,
  ): Promise<{ ok: true; response: string } | { ok: false; err: SmtpError }> {
    return new Promise((resolve) => {
      // The server may close right after a reply (e.g. 421, RFC 5321 §3.8): report that reply, not
      // just "closed". setImmediate lets nodemailer's own callback win when it has one.
      const onEnd = () =>
        setImmediate(() => {
          const last =
            typeof pooled.conn.lastServerResponse === 'string' ? pooled.conn.lastServerResponse : '';
          const code = /^([45]\d\d)[\s-]/.exec(last);
          const err: SmtpError = Object.assign(new Error('connection closed by the server'), {
            code: 'ECONNECTION',
          });
          if (code) Object.assign(err, { responseCode: Number(code[1]), response: last });
          resolve({ ok: false, err });
        });
      pooled.conn.once('end', onEnd);
      pooled.conn.send({ from: job.from, to: [job.to], size: job.raw.length }, job.raw, (err, info) => {
        pooled.conn.removeListener('end', onEnd);
        if (err) return resolve({ ok: false, err: err as SmtpError });
        if (info!.rejected.length > 0) {
          const rejectedErr = (info!.rejectedErrors?.[0] ?? new Error('recipient rejected')) as SmtpError;
          return resolve({ ok: false, err: Object.assign(rejectedErr, { code: 'EENVELOPE' }) });
        }
        resolve({ ok: true, response: info!.response });
      });
    });
  }

  /** `reply`: already through peerText, so classifying it costs at most MAX_REPLY_TEXT characters. */
  private result(
    code: number,
    reply: string,
    target: DeliveryTarget,
    conn: SMTPConnection | undefined,
  ): AttemptResult {
    const verdict = classifyReply(code, reply);
    const greylisted = verdict.outcome === 'deferred' && verdict.greylisted;
    return {
      outcome: verdict.outcome,
      smtpCode: code,
      enhanced: verdict.enhanced,
      reply,
      remoteHost: target.host,
      remoteIp: target.address,
      tls: conn ? conn.secure : false,
      // Greylisting is not throttling (ARCHITECTURE.md): "try again later" in a greylist's reply
      // asks nothing of the destination's other mail.
      throttled: verdict.throttled && !greylisted,
      greylisted,
      category: verdict.outcome === 'delivered' ? null : verdict.category,
      reason: verdict.outcome === 'delivered' ? '' : verdict.reason,
      senderBlock: verdict.senderBlock,
    };
  }

  private errorResult(
    err: SmtpError,
    target: DeliveryTarget,
    conn: SMTPConnection | undefined,
  ): AttemptResult {
    if (typeof err.responseCode === 'number' && err.responseCode >= 200) {
      const reply = peerText((err.response ?? err.message).trim(), MAX_REPLY_TEXT);
      return this.result(err.responseCode, reply, target, conn);
    }
    // No reply at all: refused, timed out, or dropped. Always worth another try later.
    const connecting = conn === undefined;
    return {
      outcome: 'deferred',
      smtpCode: null,
      enhanced: connecting ? '4.4.1' : '4.4.2',
      // The message may quote the server (a malformed greeting, say): kept like a reply.
      reply: peerText(
        `${connecting ? 'could not connect' : 'connection lost'}: ${err.message}`,
        MAX_REPLY_TEXT,
      ),
      remoteHost: target.host,
      remoteIp: target.address,
      tls: conn ? conn.secure : false,
      throttled: false,
      greylisted: false,
      // Refused, timed out, a failed TLS handshake, dropped: nothing was said about the recipient.
      category: 'network_error',
      reason: connecting
        ? 'the receiving server could not be reached'
        : 'the connection to the receiving server was lost',
    };
  }

  private takeIdle(key: string): PooledConnection | undefined {
    const list = this.idle.get(key);
    while (list && list.length > 0) {
      const p = list.pop()!;
      clearTimeout(p.idleTimer);
      if (!(p.conn as unknown as { _destroyed?: boolean })._destroyed) return p;
    }
    return undefined;
  }

  private release(p: PooledConnection): void {
    if (this.closed || p.sent >= p.maxMessages) return this.discard(p, true);
    const list = this.idle.get(p.key) ?? [];
    list.push(p);
    this.idle.set(p.key, list);
    p.idleTimer = setTimeout(() => {
      const l = this.idle.get(p.key);
      const i = l?.indexOf(p) ?? -1;
      if (i >= 0) l!.splice(i, 1);
      this.discard(p, true);
    }, this.idleMs);
    p.idleTimer.unref();
  }

  private discard(p: PooledConnection, polite = false): void {
    clearTimeout(p.idleTimer);
    if (polite) p.conn.quit();
    else p.conn.close();
  }
}
