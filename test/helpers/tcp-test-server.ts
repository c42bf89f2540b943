// A TCP server on loopback whose sessions a test writes by hand (a host that never greets, one that
// trickles its replies): it counts connections and closes, and its stop() ends every session.
import net from 'node:net';

export class TcpTestServer {
  connections = 0;
  closed = 0;
  port = 0;
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  /** `session`: what the server does with each connection. */
  constructor(session: (socket: net.Socket) => void) {
    this.server = net.createServer((socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('error', () => undefined); // the client may hang up at any time: that is its right
      socket.on('close', () => {
        this.sockets.delete(socket);
        this.closed++;
      });
      session(socket);
    });
  }

  /** Listens on `host` at `port` (0: any free one). */
  async start(port = 0, host = '127.0.0.1'): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, host, resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
