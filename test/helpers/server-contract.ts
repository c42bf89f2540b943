// The OpenAPI contract of a started `txmail` process (helpers/process.ts startServer): every answer a
// test gets from it over the network, whether its own call from Node (apiFetch) or a page's in the
// browser tests (e2e/browser.ts), is checked against the /openapi.json that process serves, as every
// answer of the in-process apps is (helpers/openapi-contract.ts recordContract).
import { atFileEnd } from './contract-findings.js';
import { ContractRecorder, ResponseContract, type Answer, type OpenApiDocument } from './openapi-contract.js';

export interface ServerContract {
  readonly origin: string;
  readonly contract: ResponseContract;
  readonly recorder: ContractRecorder;
  /** Checks still reading their answer's body; a failed one stays here (settleContract throws it). */
  readonly pending: Set<Promise<void>>;
}

/**
 * By the server's URL, for one test file: a test that restarts its server on the same port keeps one
 * count. At the file's end the count is recorded and the contract forgotten (a later file's server may
 * get the same port).
 */
const contracts = new Map<string, Promise<ServerContract>>();

/** A server as the tests name it: its RunningServer, or its URL. */
type Server = { url: string } | string;
const urlOf = (server: Server) => (typeof server === 'string' ? server : server.url);

/** The contract of `server`, read from its own /openapi.json once it has answered. */
export function contractOf(server: Server): Promise<ServerContract> {
  const url = urlOf(server);
  let found = contracts.get(url);
  if (!found) {
    found = (async () => {
      const res = await fetch(`${url}/openapi.json`);
      if (!res.ok) throw new Error(`GET /openapi.json answered ${res.status}`);
      const contract = new ResponseContract((await res.json()) as OpenApiDocument);
      const state: ServerContract = {
        origin: new URL(url).origin,
        contract,
        recorder: new ContractRecorder(() => contract),
        pending: new Set<Promise<void>>(),
      };
      atFileEnd(() => {
        state.recorder.flush();
        contracts.delete(url);
      });
      return state;
    })();
    contracts.set(url, found);
    // A server not answering yet (or killed by the test) is asked again next time.
    found.catch(() => contracts.delete(url));
  }
  return found;
}

/**
 * Checks the answer `read` reads when `url` is one of the server's operations (or under /api/, where
 * an operation the document lacks is a finding). The dashboard's pages and assets are not read.
 */
export function checkAnswer(
  state: ServerContract,
  url: URL,
  read: (route: string | undefined) => Promise<Answer>,
): Promise<void> {
  if (url.origin !== state.origin) return Promise.resolve();
  const route = state.contract.route(url.pathname);
  if (route === undefined && !url.pathname.startsWith('/api/')) return Promise.resolve();
  const checked = read(route).then((a) => state.recorder.record(a));
  state.pending.add(checked);
  checked.then(
    () => state.pending.delete(checked),
    () => undefined,
  );
  return checked;
}

/** Waits for the checks of the answers `server` gave, then records how many there were. */
export async function settleContract(server: Server | undefined): Promise<void> {
  const found = server === undefined ? undefined : contracts.get(urlOf(server));
  const state = await found?.catch(() => undefined);
  if (!state) return;
  await Promise.all(state.pending);
  state.recorder.flush();
}

/** Whether a body of this media type is read and checked; others (the raw message) by status and type. */
export function textual(contentType: string | undefined): boolean {
  const media = (contentType ?? '').split(';')[0]!.trim();
  return media === 'application/json' || media.startsWith('text/') || media === '';
}

/**
 * `fetch` of `path` on a started `server`, for a test's own calls: the answer is checked against the
 * server's /openapi.json before it is returned (counted in the run's total when the file ends).
 */
export async function apiFetch(server: Server, path: string, init?: RequestInit): Promise<Response> {
  const state = await contractOf(server);
  const res = await fetch(`${urlOf(server)}${path}`, init);
  const copy = res.clone();
  await checkAnswer(state, new URL(res.url), async (route) => {
    const contentType = copy.headers.get('content-type') ?? undefined;
    return {
      method: (init?.method ?? 'GET').toUpperCase(),
      route,
      status: copy.status,
      contentType,
      body: textual(contentType) ? await copy.text() : undefined,
    };
  });
  return res;
}
