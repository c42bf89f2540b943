// Serves the dashboard: the compiled single-page app (dist/web) at `/`. Files are read once at start
// (a few hundred KiB) and looked up by exact path, so no request can reach outside the folder.
// Client routes (/logs, /domains/…) answer index.html; hashed assets are cached for a year.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../errors.js';
import { noRoute, quotedPath } from './errors.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Only our own scripts and styles, no framing, no inline script: an injected string cannot run. */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The folder of the built dashboard: beside the compiled server, or dist/web when running from source. */
export function defaultWebRoot(): string | undefined {
  const candidates = [
    join(import.meta.dirname, '..', 'web'),
    join(import.meta.dirname, '..', '..', 'dist', 'web'),
  ];
  return candidates.find((dir) => existsSync(join(dir, 'index.html')));
}

function readTree(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set('/' + relative(root, path).split(sep).join('/'), readFileSync(path));
    }
  };
  walk(root);
  return files;
}

/** The built dashboard, read once: its files by path, and the page every client route answers. */
export interface WebAssets {
  files: Map<string, Buffer>;
  index: Buffer | undefined;
}

export function loadWebAssets(root: string | undefined): WebAssets {
  const files = root ? readTree(root) : new Map<string, Buffer>();
  return { files, index: files.get('/index.html') };
}

const security = (reply: FastifyReply) =>
  reply
    .header('Content-Security-Policy', DASHBOARD_CSP)
    .header('X-Content-Type-Options', 'nosniff')
    // Verification and reset links carry their token in the URL: never leak it to another site.
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Frame-Options', 'DENY');

/** Answers with the dashboard's page; undefined where the dashboard is not built. */
export function sendDashboardPage(
  reply: FastifyReply,
  assets: WebAssets,
  status = 200,
): FastifyReply | undefined {
  if (!assets.index) return undefined;
  return security(reply)
    .code(status)
    .type(TYPES['.html']!)
    .header('Cache-Control', 'no-cache')
    .send(assets.index);
}

/**
 * Whether a request whose URL could not be decoded (a bad percent-escape: FST_ERR_BAD_URL, answered
 * before routing) is a browser's visit to a dashboard page: then the dashboard answers it, 404, and
 * says "No such page" in its own frame, where a link from a mangled email or a typed address lands.
 */
export function isDashboardVisit(method: string, rawUrl: string): boolean {
  return (method === 'GET' || method === 'HEAD') && !isApiPath(rawUrl.split('?')[0]!);
}

/** Whether `path` is the API's (answered in its error form), not a dashboard page's. */
const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/** The route every dashboard page (and every unknown path) reaches. */
export const DASHBOARD_ROUTE = '/*';

export function registerWebAssets(app: FastifyInstance, assets: WebAssets): void {
  const { files } = assets;
  app.get(DASHBOARD_ROUTE, { schema: { hide: true } as object }, async (request, reply) => {
    let path: string;
    try {
      path = decodeURIComponent(request.url.split('?')[0]!);
    } catch {
      throw new AppError('not_found', 'no such page (malformed URL)');
    }
    if (isApiPath(path)) throw noRoute(request, path);
    const file = files.get(path);
    if (file && path !== '/index.html') {
      const hashed = path.startsWith('/assets/');
      return security(reply)
        .type(TYPES[extname(path)] ?? 'application/octet-stream')
        .header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
        .send(file);
    }
    // A missing file (with an extension) is a 404; anything else is a page of the app.
    if (extname(path) !== '' && path !== '/index.html')
      throw new AppError('not_found', `no file ${quotedPath(path)}`);
    const page = sendDashboardPage(reply, assets);
    if (!page) {
      throw new AppError('not_found', 'the dashboard is not built in this installation (run npm run build)');
    }
    return page;
  });
}
