// SMTP delivery over reused connections, pooled per (source IP, destination address, port, host name,
// TLS requirement). This is the only file that talks to nodemailer's SMTP client. Every session is
// judged for TLS before MAIL FROM (tls-verdict.ts; ARCHITECTURE.md, "TLS policy").
import tls from 'node:tls';
import { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { peerText } from '../peer-text.js';
import { classifyReply } from './classify-reply.js';
import { OPPORTUNISTIC, type TlsRequirement, type TlsSessionReport } from './tls-policy.js';
import { handshakeWords, judgeTls, type TlsFacts, type TlsVerdict } from './tls-verdict.js';
import type { AttemptResult, DeliveryJob, DeliveryTarget, Transport } from './transport.js';
import { UnreachableHosts } from './unreachable-hosts.js';

/**
 * The largest reply read from a server, all lines of a multi-line reply together. RFC 5321 §4.5.3.1.5
 * allows 512 octets per line and real replies (EHLO's is the longest) stay far below this; a server that
 * keeps a reply going past it loses the connection (the attempt is deferred) instead of filling memory.
 */
export const MAX_REPLY_BYTES = 64 * 1024;
/** The part of a reply that is classified and kept with the attempt (the log, events, webhooks). */
export const MAX_REPLY_TEXT = 2048;
/**
 * The most a new session's setup takes: the connection, the greeting, EHLO, STARTTLS and EHLO again.
 * Each has its own limit (30 s to connect, 30 s for the greeting, 2 minutes of silence after), but a
 * host that greets and then says nothing must not cost the destination's next host minutes.
 */
export const SETUP_TIMEOUT_MS = 60_000;
/**
 * The first reply on a reused connection, at most (SmtpTransportOptions.reusedReplyTimeoutMs): past a
 * sender-verification callout at MAIL FROM (Exim's take up to 30 s), short of the 2-minute inactivity limit.
 */
const REUSED_REPLY_MS = 40_000;
/** How often the end of a message's data is looked for (whenWritten). */
const WRITTEN_CHECK_MS = 10;
/** The default bound on one attempt's time, all hosts together (SmtpTransportOptions.attemptTimeoutMs). */
export const ATTEMPT_TIMEOUT_MS = 5 * 60_000;

/**
 * How long txmail waits for the reply to the final "." (RFC 5321 §4.5.3.2.6: 10 minutes), whatever the
 * attempt's time left. The server may have taken the message by then: giving up earlier sends it again
 * at the next attempt (RFC 1047's duplicates). The worker renews its lease on the message meanwhile
 * (worker.ts renewLeases), so no other claim takes it.
 */
export const FINAL_REPLY_TIMEOUT_MS = 10 * 60_000;

/**
 * The time one attempt has left, over the connections it opens or reuses one after another. When it
 * runs out, the connection in use is failed as a timeout (its socket destroyed with the error, or, before
 * it has a socket, its opening failed): the send or the connection in progress ends with it, and no
 * other host is tried. A connection handed to `use` after the time ran out is cut at once. Once the
 * final "." has gone (`awaitFinalReply`), the attempt's time no longer counts: the reply has its own.
 */
class AttemptDeadline {
  expired = false;
  private current: { conn: SMTPConnection; beforeSocket?: (() => void) | undefined } | undefined;
  private timer: NodeJS.Timeout;
  /** Set once the final "." has gone: how long its reply may take. */
  private finalReplyMs: number | undefined;

  /** `byMessage`: the bound is the message's deadline, nearer than the attempt's own. */
  constructor(
    private readonly ms: number,
    private readonly byMessage = false,
  ) {
    this.timer = this.arm(ms);
  }

  private arm(ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.expired = true;
      this.cut();
    }, ms);
    timer.unref();
    return timer;
  }

  /** What a connection cut by the deadline, or one not started for lack of time, fails with. */
  error(): SmtpError {
    if (this.finalReplyMs !== undefined)
      return Object.assign(
        new Error(
          `no reply to the end of the data within ${spanWords(this.finalReplyMs)}: the server may have taken the message`,
        ),
        { code: 'ETIMEDOUT' },
      );
    if (this.byMessage)
      return Object.assign(
        new Error("the message's deadline came before the end of its data: not sent, the session cut"),
        { code: 'ETIMEDOUT' },
      );
    return Object.assign(
      new Error(`the attempt ran out of its ${spanWords(this.ms)}: the server answered too slowly`),
      { code: 'ETIMEDOUT' },
    );
  }

  /** Cut by the message's deadline rather than by the attempt's own bound. */
  get cutByMessage(): boolean {
    return this.expired && this.byMessage;
  }

  /**
   * The final "." is going out on `conn`: from now on the attempt waits `ms` for its reply, however
   * little of its own time is left; the connection's inactivity limit is off meanwhile (this bounds it).
   */
  awaitFinalReply(conn: SMTPConnection, ms: number): void {
    if (this.expired) return;
    clearTimeout(this.timer);
    this.finalReplyMs = ms;
    this.timer = this.arm(ms);
    if (conn._socket) conn._socket.setTimeout(0);
  }

  /**
   * Back to the attempt's own bound after a transaction on a connection that stays open (the reply came):
   * its inactivity limit too. No later message of the attempt follows one whose final "." went, so the
   * attempt's timer is not armed again.
   */
  replied(conn: SMTPConnection, socketTimeoutMs: number): void {
    if (this.finalReplyMs === undefined) return;
    clearTimeout(this.timer);
    if (conn._socket) conn._socket.setTimeout(socketTimeoutMs);
  }

  /**
   * The connection the attempt is using now. `beforeSocket`: how to fail it while it has no socket yet
   * (a host name being resolved).
   */
  use(conn: SMTPConnection, beforeSocket?: () => void): void {
    this.current = { conn, beforeSocket };
    if (this.expired) this.cut();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.current = undefined;
  }

  private cut(): void {
    const current = this.current;
    if (!current) return;
    const socket = current.conn._socket;
    if (socket) socket.destroy(this.error());
    else current.beforeSocket?.();
  }
}

/** A span in words for an error: "0.8 s", "2 s", "10 minutes". */
function spanWords(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`;
}

export interface SmtpTransportOptions {
  /** EHLO name. */
  hostname: string;
  /** Messages sent over one connection before it is closed, unless the target says (docs/design.md §5). */
  maxMessagesPerConnection?: number;
  /** An idle pooled connection is closed after this long. */
  idleMs?: number;
  connectTimeoutMs?: number;
  /** Inactivity limit during a transaction, up to the final "." (its reply has finalReplyTimeoutMs). */
  socketTimeoutMs?: number;
  /**
   * The most one attempt takes up to the final ".", every MX host tried included (default
   * ATTEMPT_TIMEOUT_MS). A server that trickles its replies a byte at a time never trips the inactivity
   * limit; this bounds it.
   */
  attemptTimeoutMs?: number;
  /** The wait for the reply to the final "." (default FINAL_REPLY_TIMEOUT_MS). */
  finalReplyTimeoutMs?: number;
  /** The most a new session's setup takes, from the connection to EHLO's reply (default SETUP_TIMEOUT_MS). */
  setupTimeoutMs?: number;
  /**
   * How long a reused connection may stay silent before its first reply (default REUSED_REPLY_MS): one
   * the server left without closing it is then given up for a fresh one (the message goes again).
   */
  reusedReplyTimeoutMs?: number;
  /**
   * Certificate authorities (PEM) trusted besides Node's roots (and NODE_EXTRA_CA_CERTS, which only a
   * process started with it has) when checking a receiving server's certificate.
   */
  ca?: string[];
  /** The time, for the memory of hosts that could not be reached (unreachable-hosts.ts). */
  now?: () => number;
  /** That memory; one of its own by default. */
  unreachable?: UnreachableHosts;
}

interface PooledConnection {
  conn: SMTPConnection;
  key: string;
  sent: number;
  maxMessages: number;
  /** What the session's TLS came to, judged again for each message's requirement. */
  tls: TlsFacts;
  /**
   * The policy domains this session was reported for (TLS-RPT): RFC 8460 counts sessions, so a
   * session that carries many messages is reported once to each domain whose mail it carried.
   */
  reportedTo: Set<string>;
  idleTimer?: NodeJS.Timeout;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  /** The command the reply answered, as nodemailer names it (`MAIL FROM`, `RCPT TO`, `CONN`, `AUTH PLAIN`…). */
  command?: string;
  /** The connection failed during its STARTTLS handshake (set by open()). */
  tlsHandshake?: boolean;
  /**
   * The server had said something (its greeting at least) before the opening failed: a server was
   * reached, so it is a connection lost (4.4.2), not one never made (set by open()).
   */
  greeted?: boolean;
}

/** A new session, or why there is none: its connection failed, or its TLS was refused. */
type Opened =
  /** `verdict`: the session judged for the requirement it was opened for (`send`). */
  | { conn: SMTPConnection; tls: TlsFacts; verdict: TlsVerdict }
  | { err: SmtpError; verdict?: TlsVerdict }
  /** No MAIL FROM: the session (if one was made) fell short of the requirement. */
  | { refused: TlsVerdict; conn?: SMTPConnection };

export class SmtpTransport implements Transport {
  private readonly idle = new Map<string, PooledConnection[]>();
  private readonly maxMessages: number;
  private readonly idleMs: number;
  private closed = false;
  /** Node's roots and the extra CAs; undefined: Node's own store (with NODE_EXTRA_CA_CERTS). */
  private readonly trusted: string[] | undefined;
  private readonly unreachable: UnreachableHosts;
  private readonly now: () => number;
  private readonly socketTimeoutMs: number;
  private readonly finalReplyMs: number;
  /** Every connection opened and not yet ended (close() cuts those still in use). */
  private readonly live = new Set<SMTPConnection>();

  constructor(private readonly options: SmtpTransportOptions) {
    this.socketTimeoutMs = options.socketTimeoutMs ?? 120_000;
    this.finalReplyMs = options.finalReplyTimeoutMs ?? FINAL_REPLY_TIMEOUT_MS;
    this.unreachable = options.unreachable ?? new UnreachableHosts();
    this.now = options.now ?? Date.now;
    this.maxMessages = options.maxMessagesPerConnection ?? 100;
    this.idleMs = options.idleMs ?? 30_000;
    // A `ca` option replaces the default roots: they are passed with it.
    this.trusted = options.ca?.length ? [...tls.rootCertificates, ...options.ca] : undefined;
  }

  async deliver(
    job: DeliveryJob,
    targets: DeliveryTarget[],
    sourceIp?: string,
    requirement: TlsRequirement = OPPORTUNISTIC,
  ): Promise<AttemptResult> {
    const own = this.options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
    // A message's deadline nearer than the attempt's own bound cuts it there (DeliveryJob.until).
    const left = job.until === undefined ? own : Math.max(0, job.until - this.now());
    const deadline = left < own ? new AttemptDeadline(left, true) : new AttemptDeadline(own);
    try {
      return await this.deliverWithin(deadline, job, targets, sourceIp, requirement);
    } finally {
      deadline.stop();
    }
  }

  private async deliverWithin(
    deadline: AttemptDeadline,
    job: DeliveryJob,
    targets: DeliveryTarget[],
    sourceIp: string | undefined,
    requirement: TlsRequirement,
  ): Promise<AttemptResult> {
    let last: AttemptResult | undefined;
    const sessions: TlsSessionReport[] = [];
    const skipped: DeliveryTarget[] = [];
    let slowedDown = false;
    /** Tries one host; true when there is no next host to try (answered there, or out of time). */
    const answered = async (target: DeliveryTarget): Promise<boolean> => {
      const { result, tryNext } = await this.deliverTo(
        job,
        target,
        sourceIp,
        requirement,
        sessions,
        deadline,
      );
      // A host that asked to slow down before another answered still slows the destination down.
      slowedDown ||= result.throttled;
      last = sessions.length > 0 ? { ...result, tlsSessions: sessions } : result;
      if (slowedDown && !last.throttled && !last.greylisted) last = { ...last, throttled: true };
      if (skipped.length > 0 && skipped.length < targets.length)
        last = { ...last, skippedHosts: skipped.map((t) => t.host) };
      return !tryNext || deadline.expired;
    };
    // Hosts that could not be reached lately are skipped, each asked as its turn comes
    // (unreachable-hosts.ts); when every one was skipped, all are tried, as before.
    for (const target of targets) {
      if (!this.unreachable.mayTry(reachKey(target, sourceIp), this.now())) skipped.push(target);
      else if (await answered(target)) return last!;
    }
    if (skipped.length === targets.length)
      for (const target of skipped) if (await answered(target)) return last!;
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

  /**
   * Closes every pooled connection politely (QUIT), and cuts those still carrying an attempt: a worker
   * that stopped gave them up (worker.ts stop), and a session kept waiting would keep the process alive.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const list of this.idle.values()) for (const p of list) this.discard(p, true);
    this.idle.clear();
    for (const conn of this.live) conn.close();
    this.live.clear();
  }

  /**
   * One target over a pooled or new connection. `tryNext`: the host could not be reached, refused the
   * session before the message, or its TLS fell short of the requirement, so the next MX host should be
   * tried (RFC 5321 §5.1). Each session used is added to `sessions` (TLS reporting).
   */
  private async deliverTo(
    job: DeliveryJob,
    target: DeliveryTarget,
    sourceIp: string | undefined,
    requirement: TlsRequirement,
    sessions: TlsSessionReport[],
    deadline: AttemptDeadline,
  ): Promise<{ result: AttemptResult; tryNext: boolean }> {
    // A connection is reused only for the same host name (its certificate was judged for it) and the
    // same class of requirement: one that negotiated an invalid certificate, or none, never carries a
    // delivery that requires a valid one.
    const key = [
      sourceIp ?? '',
      target.address,
      target.port,
      target.host.toLowerCase(),
      requirement.requireVerified ? 'verified' : 'any',
    ].join('|');
    // A pooled connection may have been closed by the server since: if it fails before the message
    // was handed over, that says nothing about this message; retry once on a fresh connection.
    for (let fresh = false; ; fresh = true) {
      let pooled = fresh ? undefined : this.takeIdle(key);
      /** The verdict of a session opened now, for this message's requirement; a reused one is judged below. */
      let judged: TlsVerdict | undefined;
      if (!pooled) {
        const opened = await this.connect(target, sourceIp, requirement, deadline);
        if (deadline.expired) {
          // The host took the attempt's whole time without a session to send in: as unusable as one
          // that never answers, so that the next attempts try the destination's other hosts first.
          this.unreachable.failed(reachKey(target, sourceIp), this.now());
          if (!('err' in opened)) opened.conn?.close();
          return { result: this.errorResult(deadline.error(), target, undefined), tryNext: false };
        }
        // Reached: its SMTP server said something (a refusal or a greeting); otherwise down.
        if ('err' in opened && opened.err.responseCode === undefined && !opened.verdict)
          this.unreachable.failed(reachKey(target, sourceIp), this.now());
        else this.unreachable.reached(reachKey(target, sourceIp));
        if ('err' in opened) {
          if (opened.verdict) sessions.push(opened.verdict.session);
          const result = this.errorResult(opened.err, target, undefined);
          if (opened.verdict) result.tlsDetails = opened.verdict.details;
          return { result, tryNext: result.outcome !== 'bounced' };
        }
        if ('refused' in opened) {
          sessions.push(opened.refused.session);
          opened.conn?.quit(); // no MAIL FROM: the session ends politely
          return { result: this.tlsRefusal(opened.refused, target, opened.conn), tryNext: true };
        }
        pooled = {
          conn: opened.conn,
          key,
          sent: 0,
          maxMessages: target.maxMessages ?? this.maxMessages,
          tls: opened.tls,
          reportedTo: new Set(),
        };
        judged = opened.verdict;
      }
      const session = pooled;
      // The session for TLS reporting, once per policy domain (its details go with every attempt).
      const report = (v: TlsVerdict) => {
        const domain = (requirement.policyDomain ?? job.to.slice(job.to.lastIndexOf('@') + 1)).toLowerCase();
        if (session.reportedTo.has(domain)) return;
        session.reportedTo.add(domain);
        sessions.push(v.session);
      };
      // A reused session is judged for this message: it may have been opened for another recipient
      // domain, whose policy asked less of it (reporting differs, never what the key lets through).
      const verdict = judged ?? judgeTls(target, pooled.tls, requirement, target.auth !== undefined);
      if (verdict.action !== 'send') {
        report(verdict);
        this.discard(pooled, true);
        return { result: this.tlsRefusal(verdict, target, pooled.conn), tryNext: true };
      }
      const reused = pooled.sent > 0;
      deadline.use(pooled.conn);
      if (reused)
        quietAtFirst(pooled.conn, this.options.reusedReplyTimeoutMs ?? REUSED_REPLY_MS, this.socketTimeoutMs);
      const outcome = await this.send(pooled, job, deadline);
      deadline.replied(pooled.conn, this.socketTimeoutMs);
      // A host that cannot finish a transaction within the attempt's time (a reply trickled a byte at a
      // time) is passed over as an unreachable one is: the destination's other hosts go first.
      // Only a host that took the attempt's whole own bound: a message's near deadline says nothing of it.
      if (!outcome.ok && deadline.expired && !deadline.cutByMessage)
        this.unreachable.failed(reachKey(target, sourceIp), this.now());
      if (outcome.ok) {
        report(verdict);
        const reply = peerText(outcome.response.trim(), MAX_REPLY_TEXT);
        // A code run into its text ("250ok", sloppy but clear) still counts.
        const code = /^(\d{3})/.exec(reply)?.[1];
        if (code === undefined) {
          // nodemailer takes any answer to the final "." that begins with 2 for a success; one without
          // a three-digit code ("2zz ok") is no reply RFC 5321 §4.2 allows, and says nothing sure of
          // the message. Retried, as a code outside the classes is (4.5.0): a duplicate, never a loss.
          this.discard(pooled);
          const fault = this.result(0, reply, target, pooled.conn);
          return { result: { ...fault, smtpCode: null, tlsDetails: verdict.details }, tryNext: false };
        }
        pooled.sent++;
        this.release(pooled);
        const result = this.result(Number(code), reply, target, pooled.conn);
        return { result: { ...result, tlsDetails: verdict.details }, tryNext: false };
      }
      const err = outcome.err;
      // A reused connection that failed without a reply may have been closed by the server while idle:
      // the message goes again on a fresh one, unless it may no longer be finished at all (mayFinish).
      const mayFinish = job.mayFinish?.() ?? true;
      // Not the refusal of a SIZE the server announced (no reply either): the connection is fine.
      const idleClosed = err.responseCode === undefined && announcedSizeLimit(err) === undefined;
      // Never once the content went: the server may have taken it (a final "." unanswered).
      if (reused && !fresh && idleClosed && !outcome.contentSent && !deadline.expired && mayFinish) {
        this.discard(pooled);
        continue;
      }
      report(verdict);
      const result = { ...this.errorResult(err, target, pooled.conn), tlsDetails: verdict.details };
      if ((err.code === 'EENVELOPE' || err.code === 'EMESSAGE') && !result.throttled) {
        // The server refused or deferred this message (a greylisting reply too: it is about this
        // recipient, not the session); the connection itself is fine: RSET and keep it. Like every
        // pooled connection it ends with QUIT when it is released (discard, polite).

        pooled.sent++;
        pooled.conn.reset((resetErr) => (resetErr ? this.discard(pooled!) : this.release(pooled!)));
      } else {
        this.discard(pooled);
      }
      // 421 to the envelope (MAIL, RCPT, the DATA command: "too many connections"), before any content
      // (the server then closes the connection, as smtp-server and Postfix do):
      // the server is closing the session (RFC 5321 §3.8), a host-level refusal as at the greeting, so
      // the destination's next host is tried now rather than the message waiting for a retry (a code
      // waited 10 minutes behind an overloaded primary while its backup MX was fine). Not a 421 to the
      // content (Gmail's per-message policy refusals come there: every host would be sent the message
      // whole), and not a greylisting reply, which stays with its host.
      const closing = err.responseCode === 421 && !outcome.contentSent;
      return { result, tryNext: closing && !result.greylisted && result.outcome !== 'bounced' };
    }
  }

  /**
   * A new session to `target`, judged for TLS before anything is sent in it (credentials included).
   * After a failed STARTTLS handshake, opportunistic delivery reconnects at once without STARTTLS, as
   * Postfix's opportunistic level does: the mail goes in cleartext rather than not at all.
   */
  private async connect(
    target: DeliveryTarget,
    sourceIp: string | undefined,
    requirement: TlsRequirement,
    deadline: AttemptDeadline,
  ): Promise<Opened> {
    const credentials = target.auth !== undefined;
    let conn: SMTPConnection;
    let facts: TlsFacts;
    try {
      conn = await this.open(target, sourceIp, false, deadline);
      facts = this.tlsFacts(conn, target);
    } catch (err) {
      const e = err as SmtpError;
      if (!e.tlsHandshake) return { err: e };
      const error = handshakeWords(e);
      // Out of time before the cleartext retry: the attempt ends as the deadline says.
      if (deadline.expired) return { err: deadline.error() };
      const failed = judgeTls(target, { kind: 'handshake-failed', error }, requirement, credentials);
      if (failed.action !== 'fallback') return { refused: failed };
      facts = { kind: 'handshake-failed', error, retriedInCleartext: true };
      try {
        conn = await this.open(target, sourceIp, true, deadline);
      } catch (retryErr) {
        return { err: retryErr as SmtpError, verdict: judgeTls(target, facts, requirement) };
      }
    }
    const verdict = judgeTls(target, facts, requirement, credentials);
    if (verdict.action !== 'send') return { refused: verdict, conn };
    if (target.auth) {
      try {
        await login(conn, target.auth);
      } catch (err) {
        return { err: err as SmtpError, verdict };
      }
    }
    return { conn, tls: facts, verdict };
  }

  /**
   * What the session's TLS came to, read off the socket after the upgrade. The certificate is judged
   * here, not by the handshake (which accepts any: rejectUnauthorized false), so that an opportunistic
   * session records why it did not verify and a required one is refused with that reason: the chain
   * against the trusted roots (authorizationError), and the name against the host name, never the
   * address (tls.checkServerIdentity, which the handshake checks against the SNI name too).
   */
  private tlsFacts(conn: SMTPConnection, target: DeliveryTarget): TlsFacts {
    const socket = conn._socket;
    if (!conn.secure || !(socket instanceof tls.TLSSocket)) {
      // A STARTTLS answered with an error: the last reply is that error; otherwise it is EHLO's.
      const last = typeof conn.lastServerResponse === 'string' ? conn.lastServerResponse : '';
      return /^[45]\d\d/.test(last)
        ? { kind: 'refused', reply: peerText(last.trim(), 200) }
        : { kind: 'not-offered' };
    }
    const cert = socket.getPeerCertificate();
    const hasCert = cert !== null && Object.keys(cert).length > 0;
    // Node's authorizationError is the OpenSSL code as a string (typed as an Error).
    const code = socket.authorized ? null : String(socket.authorizationError as unknown);
    const chainError = code === null || code === 'ERR_TLS_CERT_ALTNAME_INVALID' ? null : code;
    const host = target.host.replace(/\.$/, '');
    const nameError = hasCert
      ? (tls.checkServerIdentity(host, cert)?.message ?? null)
      : 'the server presented no certificate';
    return {
      kind: 'tls',
      version: socket.getProtocol(),
      cipher: socket.getCipher()?.standardName ?? socket.getCipher()?.name ?? null,
      chainError,
      // Authorized: the handshake found the name valid too.
      nameError: code === null ? null : nameError,
    };
  }

  /** `ignoreTLS`: the cleartext retry after a failed STARTTLS handshake. */
  private open(
    target: DeliveryTarget,
    sourceIp: string | undefined,
    ignoreTLS: boolean,
    deadline: AttemptDeadline,
  ): Promise<SMTPConnection> {
    if (deadline.expired) return Promise.reject(deadline.error());
    const conn: SMTPConnection = new SMTPConnection({
      host: target.address,
      port: target.port,
      secure: target.secure,
      ...(target.host !== target.address ? { servername: target.host } : {}),
      name: this.options.hostname,
      ...(sourceIp ? { localAddress: sourceIp } : {}),
      connectionTimeout: this.options.connectTimeoutMs ?? 30_000,
      greetingTimeout: this.options.connectTimeoutMs ?? 30_000,
      socketTimeout: this.socketTimeoutMs,
      socketCloseTimeout: 0,
      maxResponseSize: MAX_REPLY_BYTES,
      // STARTTLS when offered (RFC 3207), any certificate: the handshake never refuses one, tlsFacts
      // judges it and the requirement decides (most MX certificates do not match their names, and
      // refusing them opportunistically would send the mail in cleartext instead).
      opportunisticTLS: true,
      ignoreTLS,
      tls: { rejectUnauthorized: false, ...(this.trusted ? { ca: this.trusted } : {}) },
      allowInternalNetworkInterfaces: true,
    });
    this.live.add(conn);
    conn.once('end', () => this.live.delete(conn));
    return new Promise((resolve, reject) => {
      // The session's setup as a whole (connection, greeting, EHLO, STARTTLS and EHLO again): a host that
      // greets and then never answers EHLO held a code for the 2 minutes of inactivity before its
      // backup MX was tried (a fault probe: delivered 30 s past its deadline).
      const setupMs = this.options.setupTimeoutMs ?? SETUP_TIMEOUT_MS;
      const setup = setTimeout(() => {
        const err = new Error(`the session was not ready within ${spanWords(setupMs)}`);
        fail(Object.assign(err, { code: 'ETIMEDOUT' }));
      }, setupMs);
      setup.unref();
      function fail(failure: SmtpError) {
        clearTimeout(setup);
        let err = failure;
        // Cut by the attempt's deadline: neither the handshake's fault nor the server's SMTP (a cut
        // during STARTTLS is no TLS failure to record or report).
        if (deadline.expired) err = deadline.error();
        // Failed while upgrading: the handshake (or the connection during it), not the server's SMTP.
        else if (conn.upgrading && !conn.secure) err.tlsHandshake = true;
        if (typeof conn.lastServerResponse === 'string' && conn.lastServerResponse !== '') err.greeted = true;
        conn.close();
        reject(err);
      }
      deadline.use(conn, () => fail(deadline.error()));
      conn.once('error', fail);
      conn.connect((err) => {
        clearTimeout(setup);
        if (err) return fail(err);
        conn.removeListener('error', fail);
        conn.on('error', () => undefined); // errors of an idle connection surface on its next use
        resolve(conn);
      });
    });
  }

  private send(
    pooled: PooledConnection,
    job: DeliveryJob,
    deadline: AttemptDeadline,
  ): Promise<{ ok: true; response: string } | { ok: false; err: SmtpError; contentSent: boolean }> {
    /** Whether the server had answered DATA with 354 and the content began to go (guardedData). */
    let contentSent = false;
    return new Promise((resolve) => {
      /** Stops waiting for the data to leave (whenWritten), once the transaction has its answer. */
      let stopWatching = () => undefined as void;
      // The server may close right after a reply (e.g. 421, RFC 5321 §3.8): report that reply, not
      // just "closed". setImmediate lets nodemailer's own callback win when it has one.
      const onEnd = () =>
        setImmediate(() => {
          stopWatching();
          const last =
            typeof pooled.conn.lastServerResponse === 'string' ? pooled.conn.lastServerResponse : '';
          const code = /^([45]\d\d)[\s-]/.exec(last);
          const err: SmtpError = Object.assign(new Error('connection closed by the server'), {
            code: 'ECONNECTION',
          });
          if (code) Object.assign(err, { responseCode: Number(code[1]), response: last });
          resolve({ ok: false, err, contentSent });
        });
      pooled.conn.once('end', onEnd);
      const message = guardedData(
        job.raw,
        job.mayFinish,
        () => (contentSent = true),
        () => {
          stopWatching = whenWritten(pooled.conn, () =>
            deadline.awaitFinalReply(pooled.conn, this.finalReplyMs),
          );
        },
      );
      pooled.conn.send({ from: job.from, to: [job.to], size: job.raw.length }, message, (err, info) => {
        pooled.conn.removeListener('end', onEnd);
        stopWatching();
        if (err) return resolve({ ok: false, err: err as SmtpError, contentSent });
        if (info!.rejected.length > 0) {
          const rejectedErr = (info!.rejectedErrors?.[0] ?? new Error('recipient rejected')) as SmtpError;
          return resolve({ ok: false, err: Object.assign(rejectedErr, { code: 'EENVELOPE' }), contentSent });
        }
        resolve({ ok: true, response: info!.response });
      });
    });
  }

  /**
   * `reply`: already through peerText, so classifying it costs at most MAX_REPLY_TEXT characters;
   * `stage`: the command it answered, when known (sessionStage).
   */
  private result(
    code: number,
    reply: string,
    target: DeliveryTarget,
    conn: SMTPConnection | undefined,
    stage?: string,
  ): AttemptResult {
    const verdict = classifyReply(code, reply, stage);
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
      const stage = sessionStage(err.command);
      const result = this.result(err.responseCode, reply, target, conn, stage);
      return result.outcome === 'bounced' ? sessionRefusal(result, stage) : result;
    }
    // The server's EHLO announced a SIZE the message exceeds (RFC 1870 §6), and nodemailer did not send
    // it: the server said in advance what its 552 at the end of the data would be, so it is that
    // refusal, permanent, rather than a lost connection retried for two days.
    const limit = announcedSizeLimit(err);
    if (limit !== undefined) {
      const reply = `552 5.3.4 Message size exceeds the ${limit} bytes the server announced (SIZE); not sent`;
      return this.result(552, reply, target, conn);
    }
    // No reply at all: refused, timed out, or dropped. Always worth another try later.
    // Never greeted: no server was reached (outcome.ts reachedNoServer retries that soon).
    const connecting = conn === undefined && err.greeted !== true;
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

  /** The attempt's result when TLS fell short of the requirement: deferred, nothing was sent. */
  private tlsRefusal(
    verdict: TlsVerdict,
    target: DeliveryTarget,
    conn: SMTPConnection | undefined,
  ): AttemptResult {
    const reason = verdict.reason ?? 'TLS fell short of the policy';
    return {
      outcome: 'deferred',
      smtpCode: null,
      enhanced: verdict.enhanced ?? '4.7.5',
      reply: peerText(reason, MAX_REPLY_TEXT),
      remoteHost: target.host,
      remoteIp: target.address,
      tls: conn ? conn.secure : false,
      throttled: false,
      greylisted: false,
      // Nothing was said about the recipient: like a host that cannot be reached.
      category: 'network_error',
      reason,
      tlsDetails: verdict.details,
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

/** A host as the transport reaches it: from which source address, to which address and port. */
function reachKey(target: DeliveryTarget, sourceIp: string | undefined): string {
  return `${sourceIp ?? ''}|${target.address}|${target.port}`;
}

function login(conn: SMTPConnection, auth: { user: string; pass: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      conn.close();
      reject(err);
    };
    conn.once('error', fail);
    conn.login(auth, (err) => {
      conn.removeListener('error', fail);
      if (err) return fail(err);
      resolve();
    });
  });
}

/** The SIZE (bytes) a server announced that nodemailer refused to send the message past, if that is `err`. */
function announcedSizeLimit(err: SmtpError): string | undefined {
  return err.code === 'EMESSAGE'
    ? /^Message size larger than allowed (\d+)$/.exec(err.message)?.[1]
    : undefined;
}

/**
 * The message's data as a stream that asks `mayFinish` before its bytes and before its end: nodemailer
 * reads it only once the server has answered DATA with 354, and writes the final dot when it ends. A
 * refusal fails the stream, and nodemailer closes the connection without the dot (DeliveryJob.mayFinish).
 * `started`: told at the first read, when the content begins to go; `ending`: told as it ends, when
 * nodemailer writes the final dot.
 */
function guardedData(
  raw: Buffer,
  mayFinish: (() => boolean) | undefined,
  started: () => void,
  ending: () => void,
): Readable {
  let sent = false;
  return new Readable({
    read() {
      started();
      if (mayFinish && !mayFinish()) {
        this.destroy(
          Object.assign(
            new Error('not finished: this process may have been counted dead, and its lease taken over'),
            { code: 'ELEASE' },
          ),
        );
        return;
      }
      if (sent) {
        ending();
        this.push(null);
      } else {
        sent = true;
        this.push(raw);
      }
    },
  });
}

/**
 * A pooled connection's server may have gone silent since its last message, without closing it (a
 * host restarted behind a load balancer, a NAT's state dropped): the first reply on it must come
 * within `firstMs`, or the connection times out as one the server closed while idle would, and the
 * message goes again on a fresh one (deliverTo). A fault probe's one-time code waited the whole
 * 2-minute inactivity limit first. Once anything arrives, the usual limit holds again.
 */
function quietAtFirst(conn: SMTPConnection, firstMs: number, usualMs: number): void {
  const socket = conn._socket;
  if (!socket) return;
  socket.setTimeout(firstMs);
  socket.once('data', () => socket.setTimeout(usualMs));
}

/**
 * Calls `then` once the connection's socket has handed everything written to it to the system: the
 * content is given to nodemailer whole, so the end of it leaves this process only when a server that
 * stopped reading lets it (a fault probe: a server that read 151 bytes of a 3 MB message, and the
 * attempt waited the final reply's 10 minutes, past the message's deadline, as if the "." had gone).
 * Until then the attempt's own bound and the inactivity limit hold. Looked at every WRITTEN_CHECK_MS
 * (a socket's 'drain' comes only after a write it refused, and the "." line's last few bytes over TLS
 * are written after the body's drain, so no event says when they have gone), after a first look on the
 * next turn that finds most messages gone; the returned function stops looking (the transaction ended).
 */
function whenWritten(conn: SMTPConnection, then: () => void): () => void {
  const written = () => {
    const socket = conn._socket;
    return !socket || socket.destroyed || socket.writableLength === 0;
  };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // Once on the next turn (most messages have left by then: no timer), else every WRITTEN_CHECK_MS.
  setImmediate(() => {
    if (stopped) return;
    if (written()) return then();
    timer = setInterval(() => {
      if (!written()) return;
      clearInterval(timer);
      then();
    }, WRITTEN_CHECK_MS);
    timer.unref();
  });
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/**
 * The command a reply answered, in the names reply intelligence reads (reply-intelligence.ts): the
 * greeting and the connection are nodemailer's `CONN`, every login method is `AUTH`.
 */
function sessionStage(command: string | undefined): string | undefined {
  if (command === undefined) return undefined;
  if (command === 'CONN') return 'INITIAL CONNECTION';
  if (/^AUTH\b/i.test(command)) return 'AUTH';
  return command.toUpperCase();
}

/**
 * A permanent refusal of the session rather than of this message, retried like a deferral and never a
 * bounce: a 5xx greeting ("554 No SMTP service here", RFC 5321 §3.1) refuses the connection, and the
 * destination's next host is tried (as Postfix's smtp_skip_5xx_greeting); a relay that refuses
 * txmail's login (535) holds every message until its operator mends TXMAIL_RELAY_URL, as Postfix's
 * smtp_sasl_auth_soft_bounce. Anything else as it was classified.
 */
function sessionRefusal(result: AttemptResult, stage: string | undefined): AttemptResult {
  if (stage === 'INITIAL CONNECTION') {
    return {
      ...result,
      outcome: 'deferred',
      reason: `the receiving server refused the connection at its greeting (${result.enhanced})`,
    };
  }
  if (stage === 'AUTH') {
    return {
      ...result,
      outcome: 'deferred',
      category: 'system_error',
      senderBlock: false,
      reason: `the relay refused txmail's login: check the credentials of TXMAIL_RELAY_URL (${result.enhanced})`,
    };
  }
  return result;
}
