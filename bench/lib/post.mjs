// Posting the benchmark message to txmail's send route over keep-alive connections.
import http from 'node:http';

export const HTML = `<p>Your sign-in code is <b>483920</b>.</p><p>${'It expires in ten minutes. '.repeat(40)}</p>`;

/**
 * HTML of about `bytes` bytes shaped like a styled receipt (a table of rows with inline styles), for
 * benches of larger messages; HTML itself when `bytes` is undefined.
 */
export function htmlOf(bytes) {
  if (bytes === undefined) return HTML;
  const row = (i) =>
    `<tr><td style="padding:8px 12px;border-bottom:1px solid #e5e7eb;font-family:Helvetica,Arial,sans-serif">Item ${i}</td>` +
    `<td style="padding:8px 12px;border-bottom:1px solid #e5e7eb;text-align:right">$${(i * 7.31).toFixed(2)}</td></tr>\n`;
  let body = '';
  for (let i = 1; body.length < bytes - 120; i++) body += row(i);
  return `<p>Your receipt</p><table style="width:100%;border-collapse:collapse">\n${body}</table>`;
}

/**
 * A function that posts one message to one of `ports` (in turn) and resolves on 200. `body`: a request
 * body of the caller's (JSON text) instead of this message from `from`; `sockets`: connections at most.
 */
export function poster(
  ports,
  key,
  { from = 'Acme <noreply@acme.example>', body, sockets = 50, html = HTML } = {},
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  body ??= JSON.stringify({
    from,
    to: 'jane@recipient.example',
    subject: 'Your sign-in code',
    message: html,
  });
  let next = 0;
  return () =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: ports[next++ % ports.length],
          path: '/api/email/send',
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'x-api-key': key },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

/** Posts `total` messages with `concurrency` requests in flight. */
export async function postAll(post, total, concurrency = 50) {
  let sent = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < total) {
        sent++;
        await post();
      }
    }),
  );
}

/** Posts `rate` messages per second for `seconds`, on schedule; resolves when all are answered. */
export async function postSteady(post, rate, seconds) {
  const start = Date.now();
  const pending = [];
  for (let i = 0; i < rate * seconds; i++) {
    const wait = start + (i * 1000) / rate - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(post());
  }
  await Promise.all(pending);
  return start;
}

/** p50/p99/max of accept→delivered for messages accepted since `since`, read from the database. */
export async function latencies(services, since) {
  const rows = await services.db.kysely
    .selectFrom('messages')
    .innerJoin('events', 'events.message_id', 'messages.id')
    .select(['messages.created_at as accepted', 'events.created_at as delivered'])
    .where('events.type', '=', 'email.delivered')
    .where('messages.created_at', '>=', since)
    .execute();
  const lat = rows.map((r) => Number(r.delivered) - Number(r.accepted)).sort((a, b) => a - b);
  const pct = (p) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
  return { p50: pct(50), p99: pct(99), max: lat.at(-1), count: lat.length };
}
