// The attacks of the hostile-input issue, run against a real `txmail serve` as an attacker would run
// them: over HTTP and SMTP, from outside the process. Each returns what it tried, whether the defence
// held, and what it measured. bench/attacks.mjs prints them with the latency of /healthz during each;
// test/attacks.test.ts asserts them.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import http from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { parseConfig } from '../../dist/config.js';
import { createServices } from '../../dist/services.js';
import { newId } from '../../dist/ids.js';
import { freePort } from './harness.mjs';
import { createBenchTenant } from './tenant.mjs';

const BIN = new URL('../../bin/txmail', import.meta.url).pathname;
const HOSTNAME = 'mta.attack.example';
export const TEST_DOMAIN = `test.${HOSTNAME}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------
// The target: tenants created through the services, then `txmail serve` as its own process.

/**
 * Starts `txmail serve` on a fresh database with the tenants the attacks need. `env` adds settings.
 * Returns { url, inboundPort, tenants, dbFile, output(), query(sql), stop() }.
 */
export async function startTarget({ env = {}, logLevel = 'debug' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'txmail-attacks-'));
  const dbFile = join(dir, 'txmail.db');
  const databaseUrl = `sqlite:${dbFile}`;
  const base = { TXMAIL_DATABASE_URL: databaseUrl, TXMAIL_HOSTNAME: HOSTNAME };
  const services = await createServices(parseConfig(base), { logger: pino({ level: 'silent' }) });
  const tenants = {
    // A free account in the sandbox: the test route is all it has.
    free: await tenant(services, 'free@attacker.example', 'free'),
    // Two Pro accounts: one with a slow webhook endpoint and a backlog, one that should not notice.
    noisy: await tenant(services, 'noisy@attacker.example', 'pro'),
    quiet: await tenant(services, 'quiet@bystander.example', 'pro'),
    // A dashboard user whose log-in others try to lock.
    owner: await tenant(services, 'owner@bystander.example', 'pro', 'correct horse battery'),
    // A Pro account whose long log is exported as CSV, several times at once.
    exporter: await tenant(services, 'exporter@attacker.example', 'pro'),
    // A production account with a verified domain: its sends are stored whole and delivered.
    sender: { key: await createBenchTenant(services, 'sender@acme.example', { dkim: false }) },
  };
  await services.close();

  const port = await freePort();
  const inboundPort = await freePort();
  let output = '';
  const child = spawn(
    process.execPath,
    [
      ...(process.env.TXMAIL_BENCH_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.TXMAIL_BENCH_PROFILE}`]
        : []),
      BIN,
      'serve',
    ],
    {
      env: {
        ...process.env,
        ...base,
        TXMAIL_HTTP_HOST: '127.0.0.1',
        TXMAIL_HTTP_PORT: String(port),
        TXMAIL_INBOUND_HOST: '127.0.0.1',
        TXMAIL_INBOUND_PORT: String(inboundPort),
        TXMAIL_LOG_LEVEL: logLevel,
        // Webhook receivers and attack clients live on loopback here; in production both are remote.
        TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
        TXMAIL_TRUST_PROXY: 'loopback',
        TXMAIL_INBOUND_TRUSTED_NETWORKS: 'none',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (d) => (output += d.toString()));
  child.stderr.on('data', (d) => (output += d.toString()));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`txmail serve exited early:\n${output}`);
    try {
      if ((await request(url, 'GET', '/healthz')).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`txmail serve did not start:\n${output}`);
    await sleep(50);
  }
  const reader = await createServices(parseConfig(base), {
    logger: pino({ level: 'silent' }),
    migrate: false,
  });
  return {
    url,
    inboundPort,
    tenants,
    dbFile,
    output: () => output,
    /** Reads the target's database (SQLite allows a reader beside the writer). */
    count: async (table, where = {}) => {
      let q = reader.db.kysely.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
      for (const [k, v] of Object.entries(where)) q = q.where(k, '=', v);
      return Number((await q.executeTakeFirstOrThrow()).n);
    },
    /** Stops the target; `kill` for one that may be frozen (SIGTERM needs the event loop). */
    async stop({ kill = false } = {}) {
      child.kill(kill ? 'SIGKILL' : 'SIGTERM');
      await exited;
      await reader.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function tenant(services, email, plan, password) {
  // Operator-created accounts count as verified: the owner can log in to the dashboard at once.
  const account = await services.accounts.create({ email, plan, password });
  const { key } = await services.accounts.createApiKey(account.id, 'attack');
  return { id: account.id, email, key, password };
}

// ---------------------------------------------------------------------------------------------------
// HTTP and SMTP clients that do exactly what they are told.

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One HTTP request; resolves with { status, headers, body } (never throws on a status). */
export function request(base, method, path, { body, headers = {}, key, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(key ? { 'x-api-key': key } : {}),
          ...headers,
        },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * A raw SMTP session: `send(line)` writes a command, `reply()` resolves with the next complete reply
 * (its code and text). `localAddress` makes it come from another loopback address.
 */
export function smtpSession(port, { localAddress } = {}) {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let buffer = '';
    const waiting = [];
    const replies = [];
    let closed = false;
    const flush = () => {
      for (;;) {
        const m = /^(\d{3}) [^\n]*\r?\n/m.exec(buffer);
        if (!m) return;
        const end = m.index + m[0].length;
        replies.push({ code: Number(m[1]), text: buffer.slice(0, end) });
        buffer = buffer.slice(end);
        if (waiting.length) waiting.shift()(replies.shift());
      }
    };
    socket.on('data', (d) => {
      buffer += d.toString('latin1');
      flush();
    });
    socket.on('close', () => {
      closed = true;
      while (waiting.length) waiting.shift()({ code: 0, text: 'closed' });
    });
    socket.on('error', () => undefined);
    const session = {
      socket,
      get closed() {
        return closed;
      },
      reply: () =>
        replies.length
          ? Promise.resolve(replies.shift())
          : closed
            ? Promise.resolve({ code: 0, text: 'closed' })
            : new Promise((r) => waiting.push(r)),
      send: (line) => socket.write(`${line}\r\n`, 'latin1'),
      async command(line) {
        this.send(line);
        return this.reply();
      },
      close: () => socket.destroy(),
    };
    socket.once('connect', () => resolve(session));
    socket.once('error', reject);
  });
}

/** Delivers one message over SMTP; resolves with the reply to the final dot (or the first refusal). */
export async function smtpDeliver(port, { from = '', to, data, localAddress }) {
  const s = await smtpSession(port, { localAddress });
  try {
    const banner = await s.reply();
    if (banner.code !== 220) return banner;
    for (const cmd of [`EHLO attacker.example`, `MAIL FROM:<${from}>`, `RCPT TO:<${to}>`, 'DATA']) {
      const r = await s.command(cmd);
      if (r.code >= 400) return r;
    }
    // Dot-stuffing (RFC 5321 §4.5.2); the content is sent as given otherwise, bare CRs included.
    s.socket.write(data.replace(/^\./gm, '..'), 'latin1');
    return await s.command(`${data.endsWith('\n') ? '' : '\r\n'}.`);
  } finally {
    s.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// /healthz while something runs.

/**
 * Asks /healthz one request after another (own connection, 10 ms apart) until `during` settles.
 * Returns { result, health: { n, p50, p99, max, over50 } } in milliseconds. The probe runs on a thread
 * of its own: the attack clients build and write megabytes of requests, which would otherwise delay
 * the probe's own timing and be blamed on the server.
 */
export async function withHealthProbe(url, during) {
  const probe = new Worker(
    `const http = require('node:http');
     const { parentPort, workerData } = require('node:worker_threads');
     const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
     const times = [];
     let done = false;
     parentPort.on('message', () => (done = true));
     (async () => {
       while (!done) {
         const start = performance.now();
         await new Promise((resolve) => {
           const req = http.get(workerData + '/healthz', { agent, timeout: 60000 }, (res) => {
             res.resume();
             res.on('end', resolve);
           });
           req.on('error', resolve);
           req.on('timeout', () => req.destroy());
         });
         times.push(performance.now() - start);
         await new Promise((r) => setTimeout(r, 10));
       }
       agent.destroy();
       parentPort.postMessage(times);
     })();`,
    { eval: true, workerData: url },
  );
  const times = new Promise((resolve) => probe.once('message', resolve));
  let result;
  try {
    result = await during;
  } finally {
    probe.postMessage('stop');
  }
  const health = summarise(await times);
  await probe.terminate();
  return { result, health };
}

export function summarise(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    n: sorted.length,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted.at(-1) ?? 0,
    over50: sorted.filter((t) => t > 50).length,
  };
}

/** Runs `fn` from `clients` loops at once until `ms` have passed; returns the statuses seen. */
async function forAWhile(ms, clients, fn, max = Infinity) {
  const until = Date.now() + ms;
  const statuses = {};
  let started = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until && started++ < max) {
        let status;
        try {
          status = await fn();
        } catch (err) {
          status = `error: ${err.message}`;
        }
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

const only4xx = (statuses) =>
  Object.keys(statuses).every((s) => Number(s) >= 400 && Number(s) < 500) && Object.keys(statuses).length > 0;

const sendBody = (from, message = '<p>Your code is 123456</p>') => ({
  from,
  to: 'jane@recipient.example',
  subject: 'Your code',
  message,
});

// ---------------------------------------------------------------------------------------------------
// The attacks. Each: (target, options) → { held: boolean, detail: string, ...measurements }.

export const ATTACKS = {
  /**
   * A benign load of the same shape as the send attacks: the baseline /healthz is compared with. At
   * most `max` sends: the account's daily test allowance (1,000 on its plan) is shared with the
   * webhook attack's own test sends, and a fast machine would spend it all in a few seconds.
   */
  async 'benign test sends'(t, { ms = 3000, max = 600 } = {}) {
    const statuses = await forAWhile(
      ms,
      4,
      async () => {
        const r = await request(t.url, 'POST', '/api/email/send/test', {
          key: t.tenants.noisy.key,
          body: sendBody('Acme <noreply@acme.example>'),
        });
        return r.status;
      },
      max,
    );
    return { held: true, detail: `statuses ${JSON.stringify(statuses)}` };
  },

  /** `from` = "a" + 60,000 spaces + "b" (a backtracking address pattern took 1.9 s per request). */
  'send: from of 60,000 spaces': fromAttack(`a${' '.repeat(60_000)}b`, 4),

  /** The same with 1 MiB of spaces between a display name and the address. */
  'send: from of 1 MiB': fromAttack(`a${' '.repeat(1 << 20)}<b@acme.example`, 2),

  /** The largest body the send route takes (10 MiB), all of it in `from`. */
  'send: from of 10 MiB': fromAttack(`a${' '.repeat(10 * (1 << 20) - 1024)}b`, 2),

  /** A valid 10 MiB message of characters JSON must unescape, from a paying account. */
  async 'send: 10 MiB message of escapes'(t, { ms = 3000 } = {}) {
    // 10 bytes of JSON per unit (é, \", \\\\, <, U+2028): just under the 10 MiB body limit.
    const html = `<p>${'\u00e9"\\<\u2028'.repeat(Math.floor((10 * (1 << 20) - 4096) / 10))}</p>`;
    const statuses = await forAWhile(ms, 2, async () => {
      const r = await request(t.url, 'POST', '/api/email/send/test', {
        key: t.tenants.quiet.key,
        body: sendBody('Acme <noreply@acme.example>', html),
      });
      return r.status;
    });
    // Held: the message was taken (200) and nothing else was answered but the daily allowance (429).
    const answered = Object.keys(statuses);
    return {
      held: (statuses[200] ?? 0) > 0 && answered.every((s) => s === '200' || s === '429'),
      detail: `statuses ${JSON.stringify(statuses)}`,
    };
  },

  /**
   * Ten real sends of 10 MiB each at once, from a production account: each is stored whole, claimed and
   * built. Held: every answer a 200 or a 429 (the body memory's share), and at least one 200.
   */
  async 'send: ten 10 MiB messages at once'(t, { copies = 10 } = {}) {
    const html = `<p>${'Your receipt, line by line. '.repeat(Math.floor((10 * (1 << 20) - 4096) / 28))}</p>`;
    const statuses = {};
    await Promise.all(
      Array.from({ length: copies }, async () => {
        const r = await request(t.url, 'POST', '/api/email/send', {
          key: t.tenants.sender.key,
          body: sendBody('Acme <noreply@acme.example>', html),
        });
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }),
    );
    // Then the worker claims and builds them: give it the time it takes.
    await sleep(3000);
    const answered = Object.keys(statuses);
    return {
      held: (statuses[200] ?? 0) > 0 && answered.every((s) => s === '200' || s === '429'),
      detail: `statuses ${JSON.stringify(statuses)}`,
    };
  },

  /**
   * One tenant's CSV exports of its log at once (GET /api/emails, Accept: text/csv): a log of `rows`
   * messages whose names and subject are 990 characters (about 3 KB a row, 31 MB an export of 10,000),
   * written straight into the database. Held: every export a 200 with every row.
   */
  async 'log: six CSV exports at once'(t, { copies = 6, rows = 10_000 } = {}) {
    seedLog(t.dbFile, t.tenants.exporter.id, rows);
    const exports = await Promise.all(
      Array.from({ length: copies }, () => csvExport(t.url, t.tenants.exporter.key)),
    );
    const lines = exports.map((e) => e.lines);
    return {
      held: exports.every((e) => e.status === 200) && lines.every((n) => n === rows + 1),
      detail: `statuses ${exports.map((e) => e.status).join(',')}; lines ${[...new Set(lines)].join(',')}; ${(exports[0].bytes / 2 ** 20).toFixed(1)} MiB each`,
    };
  },

  /**
   * To fbl@ (open to anyone): `copies` reports of 10 MB at once, each from its own address (within every
   * per-client limit). Held: every one taken (250) and processed.
   */
  async 'inbound: eight 10 MB reports at once'(t, { copies = 8, bytes = 10 * 1024 * 1024 - 4096 } = {}) {
    const line = `${'x'.repeat(76)}\r\n`;
    const data =
      `From: MAILER-DAEMON@attacker.example\r\nTo: fbl@${TEST_DOMAIN}\r\nSubject: Undelivered Mail\r\n` +
      `MIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\n${line.repeat(Math.floor(bytes / line.length))}`;
    const replies = await Promise.all(
      Array.from({ length: copies }, (_, i) =>
        smtpDeliver(t.inboundPort, { to: `fbl@${TEST_DOMAIN}`, data, localAddress: `127.0.4.${10 + i}` }),
      ),
    );
    const deadline = Date.now() + 120_000;
    let pending = await t.count('inbound_messages', { status: 'pending' });
    while (pending > 0 && Date.now() < deadline) {
      await sleep(100);
      pending = await t.count('inbound_messages', { status: 'pending' });
    }
    const codes = replies.map((r) => r.code);
    return {
      held: codes.every((c) => c === 250) && pending === 0,
      detail: `replies ${codes.join(',')}; still pending after processing: ${pending}`,
    };
  },

  /**
   * A tenant reading one of its own 10 MiB messages `copies` times at once (GET /api/emails/:id, whose
   * answer holds the HTML). Held: every read a 200 with the whole message.
   */
  async 'log: ten reads of a 10 MiB message at once'(t, { copies = 10 } = {}) {
    const html = `<p>${'Your receipt, line by line. '.repeat(Math.floor((10 * (1 << 20) - 4096) / 28))}</p>`;
    const sent = await request(t.url, 'POST', '/api/email/send', {
      key: t.tenants.sender.key,
      body: sendBody('Acme <noreply@acme.example>', html),
    });
    if (sent.status !== 200) return { held: false, detail: `the send answered ${sent.status}` };
    const id = JSON.parse(sent.body).id;
    // The send's own turns are not the reads': wait for them to pass.
    await sleep(2000);
    const reads = await Promise.all(
      Array.from({ length: copies }, () =>
        request(t.url, 'GET', `/api/emails/${id}`, { key: t.tenants.sender.key }),
      ),
    );
    const whole = reads.filter((r) => r.status === 200 && JSON.parse(r.body).message.length === html.length);
    return { held: whole.length === copies, detail: `${whole.length} of ${copies} whole` };
  },

  /** To fbl@ (open to anyone): an 80 KB X-Failed-Recipients header (8.7 s in the report parser). */
  async 'inbound: 80 KB X-Failed-Recipients'(t, { copies = 3 } = {}) {
    const data =
      `From: MAILER-DAEMON@attacker.example\r\nTo: fbl@${TEST_DOMAIN}\r\nSubject: Undelivered Mail\r\n` +
      `X-Failed-Recipients: ${'a'.repeat(80_000)}\r\n\r\nThis is the mail system. Your message could not be delivered.\r\n`;
    return inboundAttack(t, data, copies);
  },

  /** A message/rfc822 part of spaces and bare CRs (9.9 s in the report parser). */
  async 'inbound: rfc822 part of spaces and bare CRs'(t, { copies = 3 } = {}) {
    const boundary = 'b1';
    const data =
      `From: MAILER-DAEMON@attacker.example\r\nTo: fbl@${TEST_DOMAIN}\r\nSubject: Delivery Status Notification\r\n` +
      `MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"\r\n\r\n` +
      `--${boundary}\r\nContent-Type: text/plain\r\n\r\nDelivery failed.\r\n` +
      `--${boundary}\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; attacker.example\r\n\r\n` +
      `Final-Recipient: rfc822; jane@recipient.example\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n` +
      `--${boundary}\r\nContent-Type: message/rfc822\r\n\r\nX-A:${' \r'.repeat(50_000)}\r\n\r\nbody\r\n--${boundary}--\r\n`;
    return inboundAttack(t, data, copies);
  },

  /**
   * One account's slow endpoint and a backlog of replays; another account's push must not wait behind
   * them. The quiet account's push delay is measured from its replay request to its receiver.
   */
  async 'webhooks: slow endpoint with replays'(t, { backlog = 1000, holdMs = 20_000 } = {}) {
    const slow = await receiver({ holdMs });
    const fast = await receiver({});
    try {
      const noisy = t.tenants.noisy;
      const quiet = t.tenants.quiet;
      const hook = async (tenant, url) =>
        JSON.parse(
          (
            await request(t.url, 'POST', '/api/webhooks', {
              key: tenant.key,
              body: { url, events: ['email.delivered'] },
            })
          ).body,
        );
      const noisyHook = await hook(noisy, slow.url);
      const quietHook = await hook(quiet, fast.url);
      const event = async (tenant) => {
        const sent = JSON.parse(
          (
            await request(t.url, 'POST', '/api/email/send/test', {
              key: tenant.key,
              body: sendBody('Acme <noreply@acme.example>'),
            })
          ).body,
        );
        const detail = JSON.parse(
          (await request(t.url, 'GET', `/api/emails/${sent.id}`, { key: tenant.key })).body,
        );
        return (detail.events ?? detail.timeline ?? []).map((e) => e.id).find(Boolean);
      };
      const noisyEvent = await event(noisy);
      const quietEvent = await event(quiet);
      const replayStatuses = {};
      for (let i = 0; i < backlog + 5; i++) {
        const r = await request(t.url, 'POST', `/api/webhooks/${noisyHook.id}/replay`, {
          key: noisy.key,
          body: { event_id: noisyEvent },
        });
        replayStatuses[r.status] = (replayStatuses[r.status] ?? 0) + 1;
      }
      // Let the dispatcher fill its slots with the noisy account's pushes first.
      await sleep(1500);
      const started = Date.now();
      await request(t.url, 'POST', `/api/webhooks/${quietHook.id}/replay`, {
        key: quiet.key,
        body: { event_id: quietEvent },
      });
      const arrived = await fast.first(60_000);
      const delayMs = arrived === undefined ? Infinity : arrived - started;
      return {
        held: delayMs < 15_000 && (replayStatuses[429] ?? 0) > 0,
        delayMs,
        maxOpenAtSlowEndpoint: slow.maxOpen(),
        detail: `other account's push after ${delayMs === Infinity ? 'never (60 s)' : `${delayMs} ms`}; open at the slow endpoint at most ${slow.maxOpen()}; replays ${JSON.stringify(replayStatuses)}`,
      };
    } finally {
      slow.close();
      fast.close();
    }
  },

  /** A free account posting 1 MiB test messages as fast as it may: what reaches the disk. */
  async 'test route: 1 MiB messages'(t, { ms = 5000 } = {}) {
    const before = dbBytes(t.dbFile);
    const storedBefore = await t.count('messages', { account_id: t.tenants.free.id });
    const html = `<p>${'x'.repeat(1 << 20)}</p>`;
    const statuses = await forAWhile(ms, 4, async () => {
      const r = await request(t.url, 'POST', '/api/email/send/test', {
        key: t.tenants.free.key,
        body: sendBody('Acme <noreply@acme.example>', html),
      });
      return r.status;
    });
    const stored = (await t.count('messages', { account_id: t.tenants.free.id })) - storedBefore;
    const grownMiB = (dbBytes(t.dbFile) - before) / 2 ** 20;
    return {
      held: stored <= 100 && grownMiB < 100 * 0.07 + 8,
      stored,
      grownMiB,
      detail: `${stored} stored, database +${grownMiB.toFixed(1)} MiB; statuses ${JSON.stringify(statuses)}`,
    };
  },

  /** 200 slow sessions from one address (NOOP now and then); then a stranger tries to connect. */
  async 'inbound: 200 slow sessions from one address'(t, { sessions = 200, holdMs = 3000 } = {}) {
    const open = [];
    let admitted = 0;
    let refused = 0;
    for (let i = 0; i < sessions; i++) {
      try {
        const s = await smtpSession(t.inboundPort, { localAddress: '127.0.0.9' });
        const banner = await s.reply();
        if (banner.code === 220) {
          admitted++;
          open.push(s);
          s.send('EHLO slow.example');
        } else {
          refused++;
          s.close();
        }
      } catch {
        refused++;
      }
    }
    const noop = setInterval(() => open.forEach((s) => s.send('NOOP')), 1000);
    await sleep(holdMs);
    let stranger = 0;
    try {
      const s = await smtpSession(t.inboundPort, { localAddress: '127.0.0.10' });
      stranger = (await s.reply()).code;
      s.close();
    } catch {
      stranger = -1;
    }
    clearInterval(noop);
    open.forEach((s) => s.close());
    return {
      held: admitted <= 10 && stranger === 220,
      admitted,
      detail: `${admitted} admitted, ${refused} refused; a client from another address got ${stranger}`,
    };
  },

  /** With debug logs on, the tokens of emailed links must not reach the log. */
  async 'logs: tokens in query strings'(t) {
    const secret = `tok${newId().replace(/-/g, '')}`;
    await request(t.url, 'GET', `/verify-email?token=${secret}`);
    await request(t.url, 'GET', `/reset-password?token=${secret}`);
    await request(t.url, 'GET', `/api/emails?token=${secret}`, { key: t.tenants.noisy.key });
    await sleep(200);
    const leaked = t.output().includes(secret);
    return { held: !leaked, detail: leaked ? 'a token reached the log' : 'no token in the log' };
  },

  /** Webhook URLs whose address is loopback in an IPv6 disguise (needs private networks refused). */
  async 'guards: IPv4 inside IPv6'(t) {
    const urls = [
      'https://[::127.0.0.1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[64:ff9b::7f00:1]/',
      'https://[::ffff:169.254.169.254]/',
    ];
    const statuses = [];
    for (const url of urls) {
      const r = await request(t.url, 'POST', '/api/webhooks', { key: t.tenants.quiet.key, body: { url } });
      statuses.push(r.status);
    }
    return {
      held: statuses.every((s) => s === 400),
      detail: urls.map((u, i) => `${u} → ${statuses[i]}`).join(', '),
    };
  },

  /** Sign-up must not say whether an address has an account. */
  async 'sign-up: does the address exist?'(t) {
    const signup = (email) =>
      request(t.url, 'POST', '/api/auth/signup', {
        body: { email, password: 'a long enough password' },
        headers: { 'x-forwarded-for': '198.51.100.77' },
      });
    const taken = await signup(t.tenants.owner.email);
    const fresh = await signup(`new-${Date.now()}@bystander.example`);
    const same = taken.status === fresh.status && taken.body === fresh.body;
    return {
      held: same && taken.status === 202 && !taken.headers['set-cookie'],
      detail: `existing → ${taken.status} ${taken.body.slice(0, 80)}; new → ${fresh.status} ${fresh.body.slice(0, 80)}`,
    };
  },

  /** Fifty wrong passwords from elsewhere; then the owner logs in from home. */
  async 'log-in: lock the owner out'(t, { tries = 50 } = {}) {
    const login = (password, ip) =>
      request(t.url, 'POST', '/api/auth/login', {
        body: { email: t.tenants.owner.email, password },
        headers: { 'x-forwarded-for': ip },
      });
    for (let i = 0; i < tries; i++) await login('wrong password!', `198.51.100.${(i % 5) + 1}`);
    const owner = await login(t.tenants.owner.password, '203.0.113.5');
    return {
      held: owner.status === 200,
      detail: `the owner's own log-in after ${tries} wrong ones elsewhere: ${owner.status}`,
    };
  },
};

/** Sends with this `from` from `clients` at once for a while: each must be refused (4xx), none fail. */
function fromAttack(from, clients) {
  return async (t, { ms = 3000 } = {}) => {
    const statuses = await forAWhile(ms, clients, async () => {
      const r = await request(t.url, 'POST', '/api/email/send/test', {
        key: t.tenants.free.key,
        body: sendBody(from),
      });
      return r.status;
    });
    return { held: only4xx(statuses), detail: `statuses ${JSON.stringify(statuses)}` };
  };
}

async function inboundAttack(t, data, copies) {
  const replies = [];
  for (let i = 0; i < copies; i++) {
    const r = await smtpDeliver(t.inboundPort, { to: `fbl@${TEST_DOMAIN}`, data, localAddress: '127.0.0.7' });
    replies.push(r.code);
  }
  // Processing happens after the 250: wait until none is pending (or give up after a minute).
  const deadline = Date.now() + 60_000;
  let pending = await t.count('inbound_messages', { status: 'pending' });
  while (pending > 0 && Date.now() < deadline) {
    await sleep(100);
    pending = await t.count('inbound_messages', { status: 'pending' });
  }
  // Held: every copy was taken (250), so the parser met it, and none is left pending.
  return {
    held: replies.every((c) => c === 250) && pending === 0,
    detail: `replies ${replies.join(',')}; still pending after processing: ${pending}`,
  };
}

function dbBytes(file) {
  return [file, `${file}-wal`].reduce((sum, f) => sum + (existsSync(f) ? statSync(f).size : 0), 0);
}

/** A webhook receiver on loopback: answers 200 at once, or holds every request for `holdMs`. */
async function receiver({ holdMs = 0 }) {
  let open = 0;
  let maxOpen = 0;
  const arrivals = [];
  const waiters = [];
  const held = new Set();
  const server = http.createServer((req, res) => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    arrivals.push(Date.now());
    waiters.splice(0).forEach((w) => w(Date.now()));
    req.resume();
    const finish = () => {
      open--;
      held.delete(timer);
      if (!res.destroyed) res.end('ok');
    };
    const timer = setTimeout(finish, holdMs);
    held.add(timer);
    res.on('close', () => {
      if (held.has(timer)) {
        clearTimeout(timer);
        held.delete(timer);
        open--;
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    maxOpen: () => maxOpen,
    first: (timeoutMs) =>
      arrivals.length
        ? Promise.resolve(arrivals[0])
        : new Promise((resolve) => {
            const timer = setTimeout(() => resolve(undefined), timeoutMs);
            waiters.push((at) => {
              clearTimeout(timer);
              resolve(at);
            });
          }),
    close: () => {
      held.forEach((t) => clearTimeout(t));
      server.closeAllConnections();
      server.close();
    },
  };
}

/** `rows` delivered messages of `accountId` with 990-character names and subject, once per database. */
function seedLog(dbFile, accountId, rows) {
  const db = new Database(dbFile);
  try {
    const { n } = db.prepare('select count(*) as n from messages where account_id = ?').get(accountId);
    if (n >= rows) return;
    const long = (c) => c.repeat(990);
    const insert = db.prepare(
      `insert into messages (id, account_id, status, from_name, from_email, from_domain, to_name, to_email,
         to_domain, subject, created_at, updated_at, attempts)
       values (?, ?, 'delivered', ?, ?, 'acme.example', ?, ?, 'recipient.example', ?, ?, ?, 1)`,
    );
    const now = Date.now();
    db.transaction(() => {
      for (let i = n; i < rows; i++)
        insert.run(
          newId(),
          accountId,
          long('n'),
          `a${i}@acme.example`,
          long('m'),
          `r${i}@recipient.example`,
          long('s'),
          now - i,
          now,
        );
    })();
  } finally {
    db.close();
  }
}

/** One CSV export, its body counted as it comes (not kept): { status, lines, bytes }. */
function csvExport(base, key) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${base}/api/emails`,
      { headers: { 'x-api-key': key, accept: 'text/csv' } },
      (res) => {
        let lines = 0;
        let bytes = 0;
        res.on('data', (chunk) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        res.on('end', () => resolve({ status: res.statusCode, lines, bytes }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}
