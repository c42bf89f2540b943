// Whether this browser asked for a sign-up lately. The verification link logs the browser that opens it
// into the new account: opened where the sign-up was made, it goes on at once; opened elsewhere (another
// device, or a page that sent this browser to someone else's link to have it work in their account, a
// login CSRF), the page asks first (pages/verify-email.tsx). Another site cannot set this marker.
const KEY = 'txmail.signup';
/** As long as a sign-up link works. */
const FOR_MS = 24 * 3600_000;

export function markSignup(): void {
  try {
    localStorage.setItem(KEY, String(Date.now()));
  } catch {
    // Storage refused: the link's page will ask before it logs in.
  }
}

export function signedUpLately(): boolean {
  try {
    const at = Number(localStorage.getItem(KEY));
    return at > 0 && Date.now() - at < FOR_MS;
  } catch {
    return false;
  }
}

export function forgetSignup(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
