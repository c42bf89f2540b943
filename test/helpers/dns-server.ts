// A real DNS server on loopback (UDP) for tests: answers MX, A, AAAA and TXT from a table the test
// edits, NXDOMAIN for unknown names, SERVFAIL for names marked broken. A TXT value is one string (split
// into 255-byte character-strings as publishers do) or an array of character-strings sent as given.
import { createSocket, type Socket } from 'node:dgram';
import dnsPacket, { type Answer } from 'dns-packet';

type RecordType = 'MX' | 'A' | 'AAAA' | 'TXT';
type Data = {
  MX: { preference: number; exchange: string };
  A: string;
  AAAA: string;
  TXT: string | string[];
};

export class TestDnsServer {
  private readonly zone = new Map<string, Map<RecordType, unknown[]>>();
  private readonly broken = new Set<string>();
  private socket: Socket | undefined;
  address = '';
  /** Every question received, `TYPE name` (lower-case, no final dot), in order. */
  readonly queries: string[] = [];

  async start(): Promise<this> {
    const socket = createSocket('udp4');
    socket.on('message', (msg, rinfo) => {
      let query;
      try {
        query = dnsPacket.decode(msg);
      } catch {
        return;
      }
      const reply = dnsPacket.encode(this.answer(query));
      socket.send(reply, rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    this.socket = socket;
    this.address = `127.0.0.1:${socket.address().port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.socket ? this.socket.close(() => resolve()) : resolve()));
  }

  add<T extends RecordType>(name: string, type: T, ...values: Data[T][]): this {
    const key = name.toLowerCase();
    const byType = this.zone.get(key) ?? new Map<RecordType, unknown[]>();
    byType.set(type, [...(byType.get(type) ?? []), ...values]);
    this.zone.set(key, byType);
    return this;
  }

  /** Removes a name's records of one type (the name stays, so it answers NODATA), or the whole name. */
  remove(name: string, type?: RecordType): this {
    if (type) this.zone.get(name.toLowerCase())?.delete(type);
    else this.zone.delete(name.toLowerCase());
    return this;
  }

  /** Answers SERVFAIL for this name. */
  breakName(name: string): this {
    this.broken.add(name.toLowerCase());
    return this;
  }

  /** Answers this name normally again. */
  repairName(name: string): this {
    this.broken.delete(name.toLowerCase());
    return this;
  }

  private answer(query: dnsPacket.Packet): dnsPacket.Packet {
    const q = query.questions?.[0];
    const base = { type: 'response' as const, id: query.id, questions: query.questions };
    if (!q) return { ...base, flags: 1 };
    const name = q.name.toLowerCase().replace(/\.$/, '');
    this.queries.push(`${q.type} ${name}`);
    const AA = 1 << 10;
    if (this.broken.has(name)) return { ...base, flags: AA | 2 };
    const byType = this.zone.get(name);
    if (!byType) return { ...base, flags: AA | 3 };
    const values = byType.get(q.type as RecordType) ?? [];
    // A TXT character-string holds at most 255 bytes (RFC 1035 §3.3.14): long values (DKIM keys) are split.
    const encode = (data: unknown) =>
      q.type === 'TXT' && typeof data === 'string' ? (data.match(/.{1,255}/gs) ?? ['']) : data;
    const answers = values.map(
      (data) =>
        ({ type: q.type, class: 'IN', name: q.name, ttl: 60, data: encode(data) }) as unknown as Answer,
    );
    return { ...base, flags: AA, answers };
  }
}
