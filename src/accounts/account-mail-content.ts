// The words of the mail txmail sends to dashboard users. Links go to the dashboard's pages, which post
// the token: a mail scanner that follows links cannot use a token up by fetching it.

export interface MailContent {
  subject: string;
  html: string;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, body: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1a1a;max-width:560px;margin:auto;padding:24px"><h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}<p style="color:#555;font-size:13px">Sent by txmail.</p></body></html>`;
}

export function verificationMail(link: string): MailContent {
  const a = escapeHtml(link);
  return {
    subject: 'Verify your email address for txmail',
    html: layout(
      'Verify your email address',
      `<p>Open this link to confirm that this address is yours:</p><p><a href="${a}">${a}</a></p><p>The link works for 48 hours. If you did not sign up, ignore this message.</p>`,
    ),
  };
}

export function passwordResetMail(link: string): MailContent {
  const a = escapeHtml(link);
  return {
    subject: 'Reset your txmail password',
    html: layout(
      'Reset your password',
      `<p>Someone (hopefully you) asked to reset the password of this txmail account. Choose a new password here:</p><p><a href="${a}">${a}</a></p><p>The link works once, for one hour. If you did not ask for it, ignore this message: your password is unchanged.</p>`,
    ),
  };
}

export function guidedTestMail(at: Date): MailContent {
  return {
    subject: 'Your first email from txmail',
    html: layout(
      'It works!',
      `<p>This message was sent by the guided test of your txmail dashboard at ${at.toISOString()}.</p><p>Next: add your domain, publish its DNS records and send from your own address with an API key.</p>`,
    ),
  };
}
