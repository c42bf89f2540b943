// The receiver's per-client limits, in the order a session meets them: connections per minute and open
// sessions at connect, a lifetime from connect, the hourly budget at MAIL FROM and after DATA. Without
// them one client could hold every slot of the server with slow sessions (a NOOP before each idle
// timeout) or fill the disk. Trusted networks meet none of them, as Postfix exempts mynetworks (the
// receiver's own cut after 20 refused recipients in a session applies to every client: receiver.ts).
import { clientNetwork } from '../client-network.js';
import { ConnectionLimiter } from './connection-limiter.js';
import type { BudgetCharge, BudgetLimit, InboundBudget } from './inbound-budget.js';
import { SessionLimiter } from '../session-limiter.js';
import type { TrustedNetworks } from '../trusted-networks.js';

/** `memory`: the receiver's memory budget for messages being received (receiver.ts). */
export type ClientLimit = 'connection_rate' | 'sessions' | 'lifetime' | 'memory' | BudgetLimit;

/** What to answer a client over a limit. */
export interface Refusal {
  limit: ClientLimit;
  code: number;
  message: string;
}

export interface ClientLimitSettings {
  trusted: TrustedNetworks;
  /** Connections per minute per client; 0 = unlimited. */
  connectionsPerMinute: number;
  /** Sessions open at once per client; 0 = unlimited. */
  sessionsPerClient: number;
  /** Longest a session may last, in milliseconds; 0 = no limit. */
  lifetimeMs: number;
  /** Sessions all untrusted clients may hold at once (the rest of the server's are trusted networks'). */
  untrustedSessions: number;
}

export const DEFAULT_SESSIONS_PER_CLIENT = 10;
export const DEFAULT_SESSION_LIFETIME_MS = 10 * 60_000;
export const DEFAULT_TRUSTED_NETWORKS = ['loopback'];

/** The reply when a session outlived its lifetime (RFC 3463 X.4.2: the connection is ended). */
export const LIFETIME_REPLY = '4.4.2 session lasted too long, closing; continue in a new one';

interface Session {
  client: string;
  timer: NodeJS.Timeout | undefined;
  expired: boolean;
}

export class ClientLimits {
  /** Sessions of untrusted clients, by smtp-server's session id, from admission to their end. */
  private readonly sessions = new Map<string, Session>();
  private readonly rate: ConnectionLimiter;
  private readonly open: SessionLimiter;

  constructor(
    private readonly settings: ClientLimitSettings,
    private readonly deps: {
      /** Undefined: no hourly budget. */
      budget: InboundBudget | undefined;
      now: () => number;
      /** Told of every refusal and every session cut at its lifetime. */
      limited: (limit: ClientLimit, address: string) => void;
    },
  ) {
    this.rate = new ConnectionLimiter(settings.connectionsPerMinute, deps.now);
    this.open = new SessionLimiter(settings.sessionsPerClient, settings.untrustedSessions);
  }

  /**
   * A new session: undefined when admitted, else the refusal to answer before closing (RFC 5321 §3.8:
   * 421 closes the channel). An admitted session holds its slot until `end`; `expire` is called if it
   * is still open when its lifetime is over.
   */
  connect(id: string, address: string, expire: () => void): Refusal | undefined {
    if (this.settings.trusted(address)) return undefined;
    const client = clientNetwork(address);
    if (!this.rate.admit(client)) {
      return this.refuse(
        'connection_rate',
        address,
        421,
        '4.7.0 too many connections from your address, try again later',
      );
    }
    if (this.open.full) {
      return this.refuse('sessions', address, 421, '4.7.0 too many sessions open, try again later');
    }
    if (!this.open.take(client)) {
      return this.refuse(
        'sessions',
        address,
        421,
        '4.7.0 too many open sessions from your address, try again later',
      );
    }
    const session: Session = { client, timer: undefined, expired: false };
    if (this.settings.lifetimeMs > 0) {
      session.timer = setTimeout(() => {
        session.expired = true;
        this.deps.limited('lifetime', address);
        expire();
      }, this.settings.lifetimeMs);
      // The session's socket keeps the process alive while it matters; the timer alone need not.
      session.timer.unref();
    }
    this.sessions.set(id, session);
    return undefined;
  }

  /** The session ended, however it ended (QUIT, reset, timeout, error, a limit): frees its slot. */
  end(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    clearTimeout(session.timer);
    this.open.release(session.client);
    this.sessions.delete(id);
  }

  /** Whether the session outlived its lifetime: nothing more of it is stored. */
  expired(id: string): boolean {
    return this.sessions.get(id)?.expired ?? false;
  }

  /**
   * MAIL FROM: a refusal when the client's hourly budget is spent (421, the session ends: nothing more
   * can be taken this hour) or cannot take a message of the size declared with SIZE (452, RFC 1870 §6.1:
   * a temporary lack of room; the client may try a smaller one).
   */
  async mailFrom(
    id: string,
    address: string,
    declaredSize: number | undefined,
  ): Promise<Refusal | undefined> {
    const session = this.sessions.get(id);
    if (!session || !this.deps.budget) return undefined;
    const room = await this.deps.budget.room(session.client, declaredSize, this.deps.now());
    if (room.ok) return undefined;
    if (room.spent) {
      return this.refuse(
        room.limit,
        address,
        421,
        '4.7.0 too much mail from your address this hour, try again later',
      );
    }
    return this.refuse(
      room.limit,
      address,
      452,
      '4.7.0 that message would pass the hourly allowance of your address, try again later',
    );
  }

  /**
   * What storing a message of `size` bytes from this session counts against its client's hourly budget
   * (nothing for a trusted client, or without a budget).
   */
  charges(id: string, size: number): BudgetCharge[] {
    const session = this.sessions.get(id);
    return session && this.deps.budget ? this.deps.budget.charges(session.client, size) : [];
  }

  /**
   * The refusal of a message that found no room in the budget when stored: 452 (RFC 5321 §4.3.2 lists
   * 452 after DATA); nothing of it was stored or counted.
   */
  noRoom(limit: BudgetLimit, address: string): Refusal {
    return this.refuse(
      limit,
      address,
      452,
      '4.7.0 too much mail from your address this hour, try again later',
    );
  }

  private refuse(limit: ClientLimit, address: string, code: number, message: string): Refusal {
    this.deps.limited(limit, address);
    return { limit, code, message };
  }
}
