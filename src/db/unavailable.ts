// Whether an error says the database is away for a while (restarting, failing over, busy with another
// writer) rather than that a statement is wrong. Callers wait and try again on the first kind; the
// second is a bug to report (delivery/worker.ts: an attempt the database kept from starting is not
// counted, and comes back in seconds).

/** SQLSTATEs of a server that is going away, coming back, or full (PostgreSQL, Appendix A). */
const POSTGRES_AWAY = new Set([
  '57P01', // admin_shutdown: the server stops or restarts
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, or in recovery
  '53300', // too_many_connections
]);

/** The socket errors of a database that cannot be reached. */
const SOCKET_AWAY = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** What node-postgres says, without a code, when a connection drops or cannot be had in time. */
const PG_DRIVER_AWAY = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];

export function databaseUnavailable(err: unknown): boolean {
  // A cause chain: the error may be wrapped by the code that met it.
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      // Class 08, connection exception; SQLite's busy: another connection holds the file's write lock.
      // (SQLITE_LOCKED is a conflict within one connection: a bug, not the database away.)
      if (POSTGRES_AWAY.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
      if (SOCKET_AWAY.has(code) || code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
    }
    if (PG_DRIVER_AWAY.some((m) => e instanceof Error && e.message.startsWith(m))) return true;
  }
  return false;
}
