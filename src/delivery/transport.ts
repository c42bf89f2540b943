// The one seam between the queue and the wire: a Transport takes a signed message and the hosts it may
// go to, and reports what happened. SMTP is the implementation (smtp-transport.ts); the queue never
// knows about connections.
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
  /** The destination asked us to slow down (421, 4.7.x rate limits). */
  throttled: boolean;
}

export interface Transport {
  /** Tries the targets in order until one answers the message (accepts, refuses or defers it). */
  deliver(job: DeliveryJob, targets: DeliveryTarget[], sourceIp?: string): Promise<AttemptResult>;
  /** Closes every pooled connection. */
  close(): Promise<void>;
}
