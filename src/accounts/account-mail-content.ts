// The words of the mail txmail sends to dashboard users. Links go to the dashboard's pages, which post
// the token: a mail scanner that follows links cannot use a token up by fetching it.

export interface MailContent {
  subject: string;
  html: string;
  /**
   * The mail's link signs its reader in (sign-up, reset, invitation): the account's log shows the
   * message without its content, since members and API keys who read the log are not its recipient.
   */
  sealed?: true;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, body: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1a1a;max-width:560px;margin:auto;padding:24px"><h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}<p style="color:#555;font-size:13px">Sent by txmail.</p></body></html>`;
}

/**
 * The sign-up link. Opening it creates the session, and it carries the password chosen at that sign-up:
 * the time lets the reader tell their own sign-up from one somebody else started with their address.
 */
export function verificationMail(link: string, signedUpAt: Date): MailContent {
  const a = escapeHtml(link);
  return {
    sealed: true,
    subject: 'Verify your email address for txmail',
    html: layout(
      'Verify your email address',
      `<p>Someone signed up for txmail with this address at ${signedUpAt.toISOString()}. If that was you, open this link to confirm that the address is yours and log in:</p><p><a href="${a}">${a}</a></p><p>The link works once, for 48 hours. If you did not sign up just now, ignore this message: without the link no account is made.</p>`,
    ),
  };
}

/**
 * To an address that has an account, when someone signs up with it again: the sign-up page answers the
 * same either way, so this mail is how the owner learns of it. Its links only open pages (log-in, reset
 * form); nothing happens unless the owner acts there.
 */
export function signupAttemptMail(
  pages: { login: string; forgotPassword: string },
  attemptedAt: Date,
): MailContent {
  const login = escapeHtml(pages.login);
  const forgot = escapeHtml(pages.forgotPassword);
  return {
    subject: 'Someone tried to sign up for txmail with your address',
    html: layout(
      'You already have an account',
      `<p>Someone tried to sign up for txmail with this address at ${attemptedAt.toISOString()}. This address already has an account, so nothing was changed: your password, keys and settings are as they were.</p><p>If it was you, log in at <a href="${login}">${login}</a>. Forgot your password? Ask for a reset link at <a href="${forgot}">${forgot}</a>.</p><p>If it was not you, ignore this message.</p>`,
    ),
  };
}

/**
 * To an invited member's address, when someone signs up with it: an address is a member of one account
 * or has its own, not both (address-holder.ts), so nothing changed. Like signupAttemptMail, its links
 * only open pages.
 */
export function memberSignupAttemptMail(
  pages: { login: string; forgotPassword: string },
  attemptedAt: Date,
): MailContent {
  const login = escapeHtml(pages.login);
  const forgot = escapeHtml(pages.forgotPassword);
  return {
    subject: 'Someone tried to sign up for txmail with your address',
    html: layout(
      'You are a member of an account',
      `<p>Someone tried to sign up for txmail with this address at ${attemptedAt.toISOString()}. This address is a member of a txmail account, so it cannot have an account of its own: nothing was changed.</p><p>If it was you, log in at <a href="${login}">${login}</a> with your member password (forgot it? Ask for a reset link at <a href="${forgot}">${forgot}</a>; if you have not accepted the invitation yet, its mail has the link). For an account of your own, sign up with another address, or ask the account's owner to remove you first.</p><p>If it was not you, ignore this message.</p>`,
    ),
  };
}

export function passwordResetMail(link: string): MailContent {
  const a = escapeHtml(link);
  return {
    sealed: true,
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

/**
 * Asked for from a logged-in account whose address is not verified: a reset link, since the account's
 * password was never proven and whoever set it may be the one asking. It says what the first proof ends.
 */
export function addressProofMail(link: string): MailContent {
  const a = escapeHtml(link);
  return {
    sealed: true,
    subject: 'Verify your email address for txmail',
    html: layout(
      'Verify your email address',
      `<p>Someone (hopefully you) asked to verify this address for its txmail account. Open this link and choose the account's password:</p><p><a href="${a}">${a}</a></p><p>This confirms that the address is yours. Until now anyone could have set the account's password, so confirming logs out every session and revokes every API key made before: log in with the password you choose, and create new keys. The link works once, for one hour. If you did not ask for it, ignore this message.</p>`,
    ),
  };
}

/** An invitation to an account: the link sets the member's password and logs in. */
export function inviteMail(link: string, accountEmail: string, invitedBy: string, role: string): MailContent {
  const a = escapeHtml(link);
  return {
    sealed: true,
    subject: 'You are invited to a txmail account',
    html: layout(
      'You are invited to txmail',
      `<p>${escapeHtml(invitedBy)} invited you to the txmail account of ${escapeHtml(accountEmail)} as ${escapeHtml(role)}. Open this link to choose your password and log in:</p><p><a href="${a}">${a}</a></p><p>The link works once, for 7 days. If you did not expect this, ignore this message.</p>`,
    ),
  };
}
