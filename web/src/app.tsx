// The dashboard shell: loads the session, picks the page for the URL, and draws the navigation.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, ApiError, onRightsRefused, onSessionExpired, setCsrfToken } from './api.js';
import { ErrorNotice, Notice } from './components/notice.js';
import { Page } from './components/page.js';
import { AcceptInvitePage } from './pages/accept-invite.js';
import { ApiKeysPage } from './pages/api-keys.js';
import { AuditPage } from './pages/audit.js';
import { DomainPage, DomainsPage } from './pages/domains.js';
import { EmailDetailPage } from './pages/email-detail.js';
import { ForgotPasswordPage } from './pages/forgot-password.js';
import { GuidedTestPage } from './pages/guided-test.js';
import { LoginPage } from './pages/login.js';
import { LogsPage } from './pages/logs.js';
import { MembersPage } from './pages/members.js';
import { OverviewPage } from './pages/overview.js';
import { ResetPasswordPage } from './pages/reset-password.js';
import { SecurityPage } from './pages/security.js';
import { SettingsPage } from './pages/settings.js';
import { SignupPage } from './pages/signup.js';
import { SuppressionsPage } from './pages/suppressions.js';
import { VerifyEmailPage } from './pages/verify-email.js';
import { WebhookPage, WebhooksPage } from './pages/webhooks.js';
import { useMay } from './permissions.js';
import { newestWins } from './newest-wins.js';
import { Link, navigate, useLocation } from './router.js';
import { routeSegment } from './url-path.js';
import { SessionContext, useSession, type SessionInfo } from './session.js';

/**
 * The pages, each with the route it stands on: shown to the roles that may call it (permissions.ts,
 * the server's table).
 */
const NAV: readonly (readonly [href: string, label: string, route: string])[] = [
  ['/', 'Overview', 'GET /api/account'],
  ['/guided-test', 'Guided test', 'POST /api/guided-test'],
  ['/api-keys', 'API keys', 'GET /api/api-keys'],
  ['/domains', 'Domains', 'GET /api/domains'],
  ['/logs', 'Logs', 'GET /api/emails'],
  ['/webhooks', 'Webhooks', 'GET /api/webhooks'],
  ['/suppressions', 'Suppressions', 'GET /api/suppressions'],
  ['/members', 'Members', 'GET /api/members'],
  ['/audit', 'Audit log', 'GET /api/audit'],
  ['/security', 'Security', 'GET /api/auth/sessions'],
  ['/settings', 'Settings', 'POST /api/auth/password'],
];

/** Pages that work without a session. */
const PUBLIC: Record<string, () => ReactNode> = {
  '/login': () => <LoginPage />,
  '/signup': () => <SignupPage />,
  '/forgot-password': () => <ForgotPasswordPage />,
  '/reset-password': () => <ResetPasswordPage />,
  '/verify-email': () => <VerifyEmailPage />,
  '/accept-invite': () => <AcceptInvitePage />,
};

function page(path: string): ReactNode {
  const [, first, second, ...more] = path.split('/');
  // A path longer than any page's (`/logs/a/b`, a trailing slash aside) is none of them.
  if (more.length > 1 || (more.length === 1 && more[0] !== '')) return <NoSuchPage />;
  /** A page without an object: `/api-keys/123` is no page. */
  const only = (node: ReactNode) => (second ? <NoSuchPage /> : node);
  switch (first) {
    case '':
      return only(<OverviewPage />);
    case 'guided-test':
      return only(<GuidedTestPage />);
    case 'api-keys':
      return only(<ApiKeysPage />);
    case 'domains':
      return second ? detail(second, (id) => <DomainPage key={id} id={id} />) : <DomainsPage />;
    case 'logs':
      return second ? detail(second, (id) => <EmailDetailPage key={id} id={id} />) : <LogsPage />;
    case 'webhooks':
      return second ? detail(second, (id) => <WebhookPage key={id} id={id} />) : <WebhooksPage />;
    case 'suppressions':
      return only(<SuppressionsPage />);
    case 'settings':
      return only(<SettingsPage />);
    case 'members':
      return only(<MembersPage />);
    case 'audit':
      return only(<AuditPage />);
    case 'security':
      return only(<SecurityPage />);
    default:
      return <NoSuchPage />;
  }
}

/** An object's id as the API makes it: a UUID (src/ids.ts), any case in an address typed by hand. */
const OBJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An object's page: the id as the address bar names it, decoded once (url-path.ts says why). Made anew
 * for each id (its `key`): moving from one email to another (a copy's link, Back) once kept the first
 * one's raw message and notices on the second's page.
 */
function detail(segment: string, show: (id: string) => ReactNode): ReactNode {
  const id = routeSegment(segment);
  // What is no id (too long, a NUL, a mangled link) is no such object, not the API's refusal of its
  // field; an id in capitals is the same object.
  return id === undefined || !OBJECT_ID.test(id) ? <NoSuchPage /> : show(id.toLowerCase());
}

function NoSuchPage() {
  return (
    <Page title="No such page">
      <Notice kind="error">
        Nothing is at this address. <Link href="/">Go to the overview</Link>.
      </Notice>
    </Page>
  );
}

/**
 * The page at `path`, or a plain refusal when the member's role may not use it: a viewer who typed
 * /api-keys once saw its form and then the server's `forbidden` under it.
 */
function AllowedPage({ path }: { path: string }) {
  const may = useMay();
  const { session } = useSession();
  const section = NAV.find(([href]) => href !== '/' && (path === href || path.startsWith(`${href}/`)));
  if (section && !may(section[2])) {
    const role = session.member?.role;
    return (
      <Page title={section[1]}>
        <Notice kind="info">
          {role ? `Your role (${role})` : 'Your role'} does not give access to {section[1]}. An admin of the
          account can change what you may do. <Link href="/">Go to the overview</Link>.
        </Notice>
      </Page>
    );
  }
  return <>{page(path)}</>;
}

export function App() {
  const location = useLocation();
  const [session, setSessionState] = useState<SessionInfo>();
  const [loadError, setLoadError] = useState<unknown>();

  // The server said the session is gone: the log-in page that follows says so, until a log-in.
  const [ended, setEnded] = useState(false);
  // Reads and log-ins answer in any order: the newest started wins (newest-wins.ts).
  const [writes] = useState(() =>
    newestWins((info: SessionInfo) => {
      setCsrfToken(info.csrf_token);
      setSessionState(info);
      if (info.account) setEnded(false);
    }),
  );
  const setSession = writes.set;
  const readSession = useCallback(
    () => writes.read(() => api<SessionInfo>('GET', '/api/auth/session')),
    [writes],
  );
  const refresh = useCallback(async () => {
    try {
      await readSession();
      setLoadError(undefined);
    } catch (err) {
      setLoadError(err);
    }
  }, [readSession]);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  useEffect(
    () =>
      onSessionExpired(() => {
        setEnded(true);
        void refresh();
      }),
    [refresh],
  );
  // A re-read after a refusal that fails (the server out of reach a moment) leaves the page as it was:
  // the next request tells again, where a failed first read has nothing to show.
  useEffect(
    () =>
      onRightsRefused(() => {
        readSession().catch(() => undefined);
      }),
    [readSession],
  );

  // The account requires two-factor sign-in and this member has none: the Security page is the only
  // page of the account until it is set up (the server refuses everything else meanwhile). A mailed
  // link's public page (an invitation to another account, a reset) still opens: it is not the account's.
  const mustEnrol = session?.member?.must_enrol_totp === true;
  const gated = mustEnrol && location.path !== '/security' && !Object.hasOwn(PUBLIC, location.path);
  useEffect(() => {
    if (gated) navigate('/security', true);
  }, [gated]);
  // Logged in already: the log-in and sign-up pages (a link in a mail, "Log in" on another page) lead
  // to the overview, not to "No such page".
  const signedInAlready = session?.account != null && ['/login', '/signup'].includes(location.path);
  useEffect(() => {
    if (signedInAlready) navigate('/', true);
  }, [signedInAlready]);

  const value = useMemo(
    () => (session ? { session, setSession, refresh } : null),
    [session, setSession, refresh],
  );
  // The session could not be read (the server or the network away): said in the page's own frame, with
  // a way to try again, not as the app's only text.
  if (loadError !== undefined && !session)
    return (
      <main id="main">
        <section className="page">
          <h1>txmail cannot be reached</h1>
          <ErrorNotice error={loadError} />
          <button type="button" className="button" onClick={() => void refresh()}>
            Try again
          </button>
        </section>
      </main>
    );
  // Logged in at /login or /signup: on the way to the overview (the effect above), not "No such page".
  if (!session || !value || signedInAlready) return <p className="loading">Loading…</p>;

  const signedIn = session.account !== null;
  const publicPage =
    signedIn && ['/login', '/signup'].includes(location.path) ? undefined : PUBLIC[location.path];
  let content: ReactNode;
  if (publicPage) content = publicPage();
  else if (!session.account) {
    content = <LoginPage ended={ended} />;
  } else if (mustEnrol) {
    // The same tree as below (AllowedPage), so that the page keeps its state once enrolment lifts the
    // gate (its "Two-factor sign-in is on." was lost to a remount).
    content = (
      <Shell path="/security">
        <AllowedPage path="/security" />
      </Shell>
    );
  } else {
    content = (
      <Shell path={location.path}>
        <AllowedPage path={location.path} />
      </Shell>
    );
  }
  return (
    <SessionContext.Provider value={value}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {content}
    </SessionContext.Provider>
  );
}

function Shell({ path, children }: { path: string; children: ReactNode }) {
  const { session } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  const menuButton = useRef<HTMLButtonElement>(null);
  // Escape closes the open menu (as a disclosure's should), and the focus goes back to its button.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  const [logoutError, setLogoutError] = useState<unknown>();
  const logout = async () => {
    try {
      await api('POST', '/api/auth/logout');
    } catch (err) {
      // Not logged out (the server could not be reached): said, and this page stays as it is. A
      // session that had already ended is as good as logged out.
      if (!(err instanceof ApiError && err.code === 'session_expired')) {
        setLogoutError(err);
        return;
      }
    }
    setCsrfToken(null);
    // A whole new page at /login, with nothing of this session's state.
    window.location.assign('/login');
  };
  const may = useMay();
  const nav = session.member?.must_enrol_totp
    ? NAV.filter(([href]) => href === '/security')
    : NAV.filter(([, , route]) => may(route));
  const active = (href: string) =>
    href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`);
  return (
    <div className="shell">
      <header className="topbar">
        <Link href="/" className="brand">
          txmail
        </Link>
        <button
          type="button"
          className="menu-button"
          ref={menuButton}
          aria-expanded={menuOpen}
          aria-controls="nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <nav id="nav" aria-label="Dashboard" className={menuOpen ? 'open' : ''}>
          <ul>
            {nav.map(([href, label]) => (
              <li key={href}>
                <Link href={href} aria-current={active(href) ? 'page' : undefined}>
                  {label}
                </Link>
              </li>
            ))}
            <li>
              <button type="button" className="link-button" onClick={() => void logout()}>
                Log out
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" className="content">
        <ErrorNotice error={logoutError} />
        {session.account && !session.account.email_verified && may('POST /api/auth/resend-verification') && (
          <Notice kind="warning">
            Verify your email address: we sent a link to {session.account.email}.{' '}
            <Link href="/settings">Send a new link</Link>
          </Notice>
        )}
        {children}
      </main>
    </div>
  );
}
