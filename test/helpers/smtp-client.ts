// Sends one raw message over SMTP to a test server, reporting the server's answer instead of throwing.
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
