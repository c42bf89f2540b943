// An MX look-up that says how long its answer may be kept. Node's resolver (c-ares through node:dns,
// Node 20) gives the TTLs of A and AAAA records only, so the delivery worker's cache (dns-cache.ts) kept
// every MX answer a fixed minute: too long for a record served with a shorter TTL, and a query a minute
// per destination for the rest. This one query is therefore made here, as c-ares makes its own: to the
// same servers as every other look-up, over UDP from a random port with a random id (answers whose id,
// question or source do not match are ignored) and EDNS0 offering 1232 bytes (asked again without it
// when the server answers FORMERR or NOTIMP), again over TCP when the answer is truncated; each server in
// turn, starting with the last that answered, `tries` rounds, each try bounded by `timeoutMs`. Encoding
// and decoding are dns-packet's. Failures are DnsErrors sorted as resolver.ts sorts c-ares's: NXDOMAIN,
// no MX records, or "try later". A server that cannot even be reached (an IPv6 one without a route)
// fails its try, never the process.
import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import packet from 'dns-packet';
import { DnsError, type MxRecord } from './answers.js';

/** A DNS server to ask. */
export interface DnsServer {
  address: string;
  port: number;
}

/** MX records with the lowest TTL (seconds) of the answer's records that led to them. */
export interface TimedMx {
  records: MxRecord[];
  ttl: number;
}

/** A server as node:dns lists it ("192.0.2.1", "192.0.2.1:5353", "::1", "[::1]:5353"). */
export function parseServer(s: string): DnsServer {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
  if (bracketed) return { address: bracketed[1]!, port: Number(bracketed[2] ?? 53) };
  const v4 = /^([\d.]+):(\d+)$/.exec(s);
  if (v4) return { address: v4[1]!, port: Number(v4[2]) };
  return { address: s, port: 53 };
}

/** A decoded message; dns-packet's decode sets `rcode` ("NOERROR", "NXDOMAIN"…), its types omit it. */
type Decoded = packet.DecodedPacket & { rcode?: string };

/** What one server answered, or why it gave no usable answer. */
type Reply = { kind: 'answer'; response: Decoded } | { kind: 'failed'; reason: string };

/** Which server a resolver asks first: the last that answered (one silent server costs one look-up its wait, not every look-up). */
export interface ServerMemory {
  first: number;
}

/**
 * The MX records of `name`. A server that fails (SERVFAIL, REFUSED, no answer in time) passes the
 * question to the next; NXDOMAIN and an answer without MX records are final. `memory`: where to start,
 * kept up to date.
 */
export async function queryMx(
  name: string,
  servers: DnsServer[],
  timeoutMs: number,
  tries: number,
  memory: ServerMemory = { first: 0 },
): Promise<TimedMx> {
  let last = 'no DNS server to ask';
  const n = servers.length;
  const start = memory.first;
  for (let round = 0; round < tries; round++) {
    for (let k = 0; k < n; k++) {
      const at = (start + k) % n;
      const reply = await ask(name, servers[at]!, timeoutMs);
      if (reply.kind === 'failed') {
        last = reply.reason;
        if (memory.first === at) memory.first = (at + 1) % n;
        continue;
      }
      memory.first = at;
      const { response } = reply;
      const rcode = response.rcode ?? 'NOERROR';
      if (rcode === 'NXDOMAIN') throw new DnsError('nxdomain', `${name} does not exist (NXDOMAIN)`);
      if (rcode !== 'NOERROR') {
        last = rcode;
        continue;
      }
      return mxAnswer(name, response);
    }
  }
  throw new DnsError('temporary', `MX look-up for ${name} failed (${last})`);
}

/** The MX records of a NOERROR answer, and the lowest TTL on the way to them (CNAMEs included). */
export function mxAnswer(name: string, response: Decoded): TimedMx {
  const records: MxRecord[] = [];
  let ttl = Infinity;
  for (const a of response.answers ?? []) {
    if (a.type === 'MX') {
      records.push({ exchange: a.data.exchange, priority: a.data.preference ?? 0 });
      ttl = Math.min(ttl, a.ttl ?? 0);
    } else if (a.type === 'CNAME') ttl = Math.min(ttl, a.ttl ?? 0);
  }
  if (records.length === 0) throw new DnsError('nodata', `${name} has no MX records`);
  return { records, ttl };
}

/** The query; with `edns`, an OPT record offering 1232-byte UDP answers (the DNS flag day's size). */
function question(name: string, id: number, edns: boolean): Buffer {
  return packet.encode({
    type: 'query',
    id,
    flags: packet.RECURSION_DESIRED,
    questions: [{ type: 'MX', class: 'IN', name }],
    ...(edns
      ? {
          additionals: [
            {
              type: 'OPT',
              name: '.',
              udpPayloadSize: 1232,
              extendedRcode: 0,
              ednsVersion: 0,
              flags: 0,
              flag_do: false,
              options: [],
            },
          ],
        }
      : {}),
  });
}

/** Whether `response` answers our question (its id, and the name asked, in any letter case). */
function answers(response: Decoded, id: number, name: string): boolean {
  const q = response.questions?.[0];
  return (
    response.type === 'response' &&
    response.id === id &&
    q !== undefined &&
    q.type === 'MX' &&
    q.name.toLowerCase() === name.toLowerCase()
  );
}

/**
 * One question to one server over UDP (with EDNS0, and without it when the server does not know it),
 * then over TCP if the answer came truncated.
 */
async function ask(name: string, server: DnsServer, timeoutMs: number): Promise<Reply> {
  let edns = true;
  let id = randomInt(0, 65536);
  let udp = await overUdp(question(name, id, edns), id, name, server, timeoutMs);
  if (udp.kind === 'answer' && (udp.response.rcode === 'FORMERR' || udp.response.rcode === 'NOTIMP')) {
    edns = false;
    id = randomInt(0, 65536);
    udp = await overUdp(question(name, id, edns), id, name, server, timeoutMs);
  }
  if (udp.kind === 'answer' && udp.response.flag_tc) {
    const tcpId = randomInt(0, 65536);
    return overTcp(question(name, tcpId, edns), tcpId, name, server, timeoutMs);
  }
  return udp;
}

/**
 * `resolve` for the first of an answer, a failure or the time running out (ETIMEOUT), the socket
 * closed then (`close`); later calls do nothing.
 */
function settleOnce(resolve: (r: Reply) => void, close: () => void, timeoutMs: number): (r: Reply) => void {
  let settled = false;
  const done = (reply: Reply) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    close();
    resolve(reply);
  };
  const timer = setTimeout(() => done({ kind: 'failed', reason: 'ETIMEOUT' }), timeoutMs);
  return done;
}

/** A socket's error as a failed try, named by its code. */
function failure(err: Error): Reply {
  return { kind: 'failed', reason: (err as NodeJS.ErrnoException).code ?? err.message };
}

function overUdp(
  query: Buffer,
  id: number,
  name: string,
  server: DnsServer,
  timeoutMs: number,
): Promise<Reply> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket(net.isIPv6(server.address) ? 'udp6' : 'udp4');
    const done = settleOnce(resolve, () => socket.close(), timeoutMs);
    socket.on('error', (err) => done(failure(err)));
    socket.on('message', (msg, from) => {
      if (from.port !== server.port) return;
      let response: Decoded;
      try {
        response = packet.decode(msg);
      } catch {
        return; // not a DNS message: keep waiting for the answer
      }
      if (answers(response, id, name)) done({ kind: 'answer', response });
    });
    // Connected: the kernel drops datagrams from any other address.
    // A connect that fails (an address without a route, an IPv6 link-local one without its zone) is
    // told to this callback, not as 'error'; a send on the unconnected socket would throw.
    socket.connect(server.port, server.address, (err?: Error) => {
      if (err) return done(failure(err));
      socket.send(query, (sendErr) => sendErr && done(failure(sendErr)));
    });
  });
}

function overTcp(
  query: Buffer,
  id: number,
  name: string,
  server: DnsServer,
  timeoutMs: number,
): Promise<Reply> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: server.address, port: server.port });
    let buffered = Buffer.alloc(0);
    const done = settleOnce(resolve, () => socket.destroy(), timeoutMs);
    socket.on('error', (err) => done(failure(err)));
    socket.on('close', () => done({ kind: 'failed', reason: 'ECONNRESET' }));
    socket.on('connect', () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(query.length);
      socket.write(Buffer.concat([length, query]));
    });
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 2) return;
      const size = buffered.readUInt16BE(0);
      if (buffered.length < 2 + size) return;
      let response: Decoded;
      try {
        response = packet.decode(buffered.subarray(2, 2 + size));
      } catch {
        return done({ kind: 'failed', reason: 'a malformed answer' });
      }
      done(
        answers(response, id, name)
          ? { kind: 'answer', response }
          : { kind: 'failed', reason: 'a mismatched answer' },
      );
    });
  });
}
