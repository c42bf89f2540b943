// The reference for bench/accept: a bare Node.js HTTP server that reads the same JSON body, parses it
// and answers a JSON object, with nothing stored. txmail's accept path is measured against this.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid_json');
      return;
    }
    const out = JSON.stringify({
      id: randomUUID(),
      status: typeof body.to === 'string' ? 'queued' : 'invalid',
    });
    res
      .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) })
      .end(out);
  });
});
server.keepAliveTimeout = 75_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
