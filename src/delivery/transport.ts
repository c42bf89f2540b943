// The one seam between the queue and the wire: a Transport takes a signed message and the hosts it may
// go to, and reports what happened. SMTP is the implementation (smtp-transport.ts); the queue never
// knows about connections.
import type { BounceCategory } from '../bounce/categories.js';
import type { TlsDetails, TlsRequirement, TlsSessionReport } from './tls-policy.js';
export interface DeliveryTarget {
  /** Host name (for logs and TLS SNI). */
  host: string;
  /** Address to connect to; a host name for a relay, resolved by the connection. */
  address: string;
  port: number;
  /** Implicit TLS (smtps). Otherwise STARTTLS is used when offered. */
  secure: boolean;
  auth?: { user: string; pass: string };
  /** Messages over one connection before it is closed (the destination's limit). */
  maxMessages?: number;
}

export interface DeliveryJob {
  /** Envelope sender (VERP) and recipient. */
  from: string;
  to: string;
  raw: Buffer;
  /**
   * Asked before the message's data is sent and again before its end (the final dot): false once this
   * process was counted dead since the claim, or may be (process-registry.ts leaseCheck), when another
   * worker may hold the message's lease and deliver it. The transaction is then cut before the dot, so the server discards
   * what it had: a process paused (SIGSTOP, a virtual machine frozen) mid-transaction resumed and
   * finished mail another worker had delivered meanwhile (a fault probe: 3 of 3, and 10 of a burst).
   */
  mayFinish?: () => boolean;
  /**
   * The message's deadline (its expire_after: ARCHITECTURE.md, "Expiry"): the attempt is cut there in
   * any step short of the final dot, since the message could no longer be delivered in time; once the
   * dot has gone, its reply is waited for as ever. Absent: the attempt's own bound alone.
   */
  until?: number;
}

export interface AttemptResult {
  outcome: 'delivered' | 'deferred' | 'bounced';
  smtpCode: number | null;
  enhanced: string;
  /** The server's reply, or what went wrong before there was one. */
  reply: string;
  remoteHost: string | null;
  remoteIp: string | null;
  tls: boolean;
  /**
   * The destination asked us to slow down (421, 4.7.28, rate-limit words), the host that answered or
   * one tried before it in the attempt (a delivery by the backup MX after the primary's 421): the
   * destination's concurrency is lowered and it is paused (destination-limits.ts). Never set with
   * `greylisted`.
   */
  throttled: boolean;
  /**
   * A greylisting deferral ("450 4.7.1 Greylisted, please try again later"): only this message waits,
   * at least the greylist's delay (retry-schedule.ts greylistRetryAt); the destination is left alone.
   */
  greylisted: boolean;
  /**
   * Why the message was not delivered (bounce/categories.ts), from the reply's verdict or from how the
   * connection or the route failed; null for a delivery.
   */
  category: BounceCategory | null;
  /** The reason in plain words, for events and the log; empty for a delivery. */
  reason: string;
  /**
   * The reply refused the sending address (a blocklist, its reputation, complaints), not the recipient
   * (bounce/reply-intelligence.ts isSenderBlock): the message is deferred even on a 5xx, and the
   * destination may be paused for the source address (ARCHITECTURE.md, "Destination blocks").
   * Absent: false.
   */
  senderBlock?: boolean;
  /**
   * What the answering session negotiated and the TLS policy applied (ARCHITECTURE.md, "TLS policy");
   * absent when no connection got that far (none could be made, or no host to try).
   */
  tlsDetails?: TlsDetails;
  /** Every connection of the attempt that reached TLS (or its absence), in order, for TLS reporting. */
  tlsSessions?: TlsSessionReport[];
  /**
   * The destination's hosts this attempt did not try because they could not be reached lately
   * (unreachable-hosts.ts), by name; absent when none was skipped. For the log: why another answered.
   */
  skippedHosts?: string[];
}

export interface Transport {
  /**
   * Tries the targets in order until one answers the message (accepts, refuses or defers it). `tls`:
   * what the sessions must have (default OPPORTUNISTIC); a host whose session falls short is not sent
   * to, and the next one is tried.
   */
  deliver(
    job: DeliveryJob,
    targets: DeliveryTarget[],
    sourceIp?: string,
    tls?: TlsRequirement,
  ): Promise<AttemptResult>;
  /** Closes every pooled connection. */
  close(): Promise<void>;
}
