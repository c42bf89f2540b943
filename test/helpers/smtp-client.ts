// Sends one raw message over SMTP to a test server, reporting the server's answer instead of throwing.
import { connect } from 'node:net';
import SMTPConnection from 'nodemailer/lib/smtp-connection';

export interface SmtpAnswer {
  ok: boolean;
  /** The reply code of the refusal (RCPT, DATA, MAIL or connection), or 250. */
  code: number;
  response: string;
}

export async function smtpSend(
  port: number,
  envelope: { from: string; to: string[] },
  raw: Buffer | string,
): Promise<SmtpAnswer> {
  const conn = new SMTPConnection({ host: '127.0.0.1', port, ignoreTLS: true, name: 'client.test' });
  try {
    await new Promise<void>((resolve, reject) => {
      conn.once('error', reject);
      conn.connect(() => {
        conn.removeListener('error', reject);
        resolve();
      });
    });
    const info = await new Promise<SMTPConnection.SentMessageInfo>((resolve, reject) =>
      conn.send(envelope, raw, (err, i) => (err ? reject(err) : resolve(i))),
    );
    return {
      ok: info.rejected.length === 0,
      code: info.rejected.length ? 550 : 250,
      response: info.response,
    };
  } catch (err) {
    const e = err as { responseCode?: number; response?: string; message: string };
    return { ok: false, code: e.responseCode ?? 0, response: e.response ?? e.message };
  } finally {
    conn.quit();
    conn.close();
  }
}

/**
 * Sends `raw` byte for byte, as a hostile client would: nodemailer (above) turns bare CRs and LFs into
 * CRLF on the way, so what it sends is never what an attacker sends. Only dot-stuffing is applied
 * (RFC 5321 §4.5.2). Resolves with the reply to the end of the data (or to the first refused command).
 */
export async function smtpSendBytes(
  port: number,
  envelope: { from: string; to: string[] },
  raw: Buffer | string,
): Promise<SmtpAnswer> {
  const socket = connect(port, '127.0.0.1');
  let buffered = '';
  const waiting: ((reply: string) => void)[] = [];
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    // A reply ends with a line "ddd text" (continuation lines are "ddd-text").
    for (let m = /^(\d{3}) .*\r\n/m.exec(buffered); m; m = /^(\d{3}) .*\r\n/m.exec(buffered)) {
      const end = m.index + m[0].length;
      const reply = buffered.slice(0, end);
      buffered = buffered.slice(end);
      waiting.shift()?.(reply);
    }
  });
  const reply = () => new Promise<string>((resolve) => waiting.push(resolve));
  const command = async (line: string) => {
    const r = reply();
    socket.write(`${line}\r\n`);
    return r;
  };
  const answer = (text: string): SmtpAnswer => {
    const code = Number(/(\d{3}) [^\r\n]*\r\n$/.exec(text)?.[1] ?? 0);
    return { ok: code === 250, code, response: text.trim() };
  };
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    await reply();
    for (const line of [
      'EHLO client.test',
      `MAIL FROM:<${envelope.from}>`,
      ...envelope.to.map((to) => `RCPT TO:<${to}>`),
      'DATA',
    ]) {
      const r = await command(line);
      if (!/^[23]\d\d /m.test(r)) return answer(r);
    }
    const bytes = Buffer.isBuffer(raw) ? raw.toString('latin1') : Buffer.from(raw).toString('latin1');
    const stuffed = bytes.replace(/(^|\n)\./g, '$1..');
    const end = reply();
    socket.write(Buffer.from(`${stuffed}${stuffed.endsWith('\r\n') ? '' : '\r\n'}.\r\n`, 'latin1'));
    return answer(await end);
  } finally {
    socket.end('QUIT\r\n');
  }
}
