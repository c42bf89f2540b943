// The OpenAPI contract (docs/design.md §3): every answer an operation gives must be one its document
// describes: a documented status, a documented media type, a body valid against its schema. `check`
// judges one answer; `ContractRecorder` records what does not match: the test file that got it fails
// (test/openapi-contract-file.ts), and the run lists them all with the count of answers checked
// (test/openapi-contract-setup.ts). `recordContract` feeds it every answer a test app gives;
// helpers/server-contract.ts every answer the tests get from a `txmail` process they started (their own
// calls, apiFetch, and the browser tests' pages).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { expect } from 'vitest';
import { CONTRACT_DIR_VARIABLE, recordFinding, type Finding } from './contract-findings.js';

interface Operation {
  responses?: Record<
    string,
    { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }
  >;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
  webhooks?: Record<string, unknown>;
}

export interface Answer {
  method: string;
  /** The route's pattern as Fastify has it (`/api/emails/:id`); undefined: no route matched. */
  route: string | undefined;
  status: number;
  contentType: string | undefined;
  /** undefined: bytes or a stream, whose status and media type are checked but not the body. */
  body: string | undefined;
  /** The answer's headers, where known: each of DESCRIBED_HEADERS it carries must be documented. */
  headers?: Record<string, unknown>;
}

/** Headers a client acts on, which the document must declare wherever an answer carries them. */
export const DESCRIBED_HEADERS = [
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'x-next-cursor',
];

/** What is wrong with an answer; `skipped` when the document has no such operation (by design). */
export type Verdict = { ok: true } | { ok: false; problem: string } | { skipped: true };

const pointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

export class ResponseContract {
  private readonly ajv: Ajv2020;

  constructor(readonly doc: OpenApiDocument) {
    // The document is JSON Schema 2020-12 (OpenAPI 3.1): its own keywords are not schema keywords.
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(this.ajv);
    this.ajv.addSchema(doc as object, 'openapi.json');
  }

  /** The document's path of a Fastify route pattern: `:id` is `{id}`. */
  static path(route: string): string {
    return route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  }

  /**
   * The route pattern (Fastify's form, `/api/emails/:id`) of the document's path a request's path
   * matches, for answers seen from outside the app (a browser's); undefined when none does. A literal
   * segment wins over a parameter, as in Fastify's router.
   */
  route(urlPath: string): string | undefined {
    const segments = urlPath.split('/');
    let best: { path: string; params: number } | undefined;
    for (const path of Object.keys(this.doc.paths)) {
      const parts = path.split('/');
      if (parts.length !== segments.length) continue;
      let params = 0;
      const matches = parts.every((part, i) => {
        if (!/^\{[^}]+\}$/.test(part)) return part === segments[i];
        params++;
        return segments[i] !== '';
      });
      if (matches && (best === undefined || params < best.params)) best = { path, params };
    }
    return best?.path.replace(/\{([^}]+)\}/g, ':$1');
  }

  check(a: Answer): Verdict {
    if (a.route === undefined) return { skipped: true };
    const path = ResponseContract.path(a.route);
    const method = a.method.toLowerCase();
    const operation = this.doc.paths[path]?.[method];
    // Every API route is in the document; the rest (the dashboard's pages, /metrics) is not meant to be.
    if (!operation) {
      return a.route.startsWith('/api/')
        ? { ok: false, problem: `${a.method} ${path} is not in the document` }
        : { skipped: true };
    }
    const response = operation.responses?.[String(a.status)];
    if (!response) return { ok: false, problem: `status ${a.status} is not documented` };
    const declared = new Set(Object.keys(response.headers ?? {}).map((h) => h.toLowerCase()));
    const undeclared = DESCRIBED_HEADERS.filter((h) => a.headers?.[h] !== undefined && !declared.has(h));
    if (undeclared.length > 0) {
      return { ok: false, problem: `header ${undeclared.join(', ')} is not documented for ${a.status}` };
    }
    if (!response.content) {
      return !a.body ? { ok: true } : { ok: false, problem: `status ${a.status} has no body documented` };
    }
    const mediaType = (a.contentType ?? '').split(';')[0]!.trim();
    if (!response.content[mediaType]?.schema) {
      return { ok: false, problem: `${mediaType || 'no content type'} is not documented for ${a.status}` };
    }
    if (a.body === undefined) return { ok: true };
    let value: unknown = a.body;
    if (mediaType === 'application/json') {
      try {
        value = JSON.parse(a.body);
      } catch {
        return { ok: false, problem: 'the body is not JSON' };
      }
    }
    const ref = `openapi.json#/paths/${pointer(path)}/${method}/responses/${a.status}/content/${pointer(mediaType)}/schema`;
    const validate = this.ajv.getSchema(ref);
    if (!validate) return { ok: false, problem: `no schema at ${ref}` };
    if (validate(value)) return { ok: true };
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(body)'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);
    return { ok: false, problem: errors.join('; ') };
  }

  /** A payload txmail POSTs to a webhook endpoint, against the document's `webhooks:` entry. */
  checkWebhook(type: string, payload: unknown): Verdict {
    const ref = `openapi.json#/webhooks/${pointer(type)}/post/requestBody/content/application~1json/schema`;
    const validate = this.ajv.getSchema(ref);
    if (!validate) return { ok: false, problem: `no webhook ${type} in the document` };
    if (validate(payload)) return { ok: true };
    return { ok: false, problem: JSON.stringify(validate.errors?.slice(0, 5)) };
  }
}

/**
 * Records the findings of one test process: a mismatch fails the test file that got it (and is listed
 * at the end of the run, from the run's folder), and `flush` adds how many answers were checked.
 */
export class ContractRecorder {
  private checked = 0;
  private readonly file: string | undefined;

  constructor(private readonly contract: () => ResponseContract) {
    const dir = process.env[CONTRACT_DIR_VARIABLE];
    this.file = dir === undefined ? undefined : join(dir, `${process.pid}.jsonl`);
  }

  record(answer: Answer): void {
    const verdict = this.contract().check(answer);
    if (!('skipped' in verdict)) this.checked++;
    if ('ok' in verdict && !verdict.ok) {
      const finding: Finding = {
        method: answer.method,
        route: answer.route!,
        status: answer.status,
        problem: verdict.problem,
        file: expect.getState().testPath,
      };
      recordFinding(finding);
      if (this.file) appendFileSync(this.file, JSON.stringify(finding) + '\n');
    }
  }

  flush(): void {
    if (this.file && this.checked > 0)
      appendFileSync(this.file, JSON.stringify({ checked: this.checked }) + '\n');
    this.checked = 0;
  }
}

/**
 * The contract of `app`'s own document, shared by the apps of this process that document the same API.
 * @fastify/swagger makes the document from the routes (method, URL, schema, config), the shared schemas
 * and its options, of which only the public URL differs between test apps: those are the key, read
 * once the app is ready, and a document is made and compiled only for a key not seen before. Made per
 * app, the document cost 13-18 ms of CPU and compiling it more, in a suite that starts an app per test.
 */
function contractOf(app: FastifyInstance, routes: RouteOptions[], publicUrl: string): ResponseContract {
  const key = JSON.stringify([
    publicUrl,
    app.getSchemas(),
    routes.map((r) => [r.method, r.url, r.schema, r.config]),
  ]);
  let contract = contracts.get(key);
  if (!contract) {
    contract = new ResponseContract(app.swagger() as unknown as OpenApiDocument);
    // A few documents at most; the oldest goes first.
    if (contracts.size >= 8) contracts.delete(contracts.keys().next().value!);
    contracts.set(key, contract);
  }
  return contract;
}
const contracts = new Map<string, ResponseContract>();

/**
 * Checks every answer `app` gives against its own /openapi.json, recording mismatches (and how many
 * answers were checked, when `flush` runs) in the run's folder. Call before `app.ready()`: `publicUrl` is
 * the one its document names (TXMAIL_PUBLIC_URL).
 */
export function recordContract(app: FastifyInstance, publicUrl: string): { flush(): void } {
  if (process.env[CONTRACT_DIR_VARIABLE] === undefined) return { flush() {} };
  // Every route, as the document's generator sees it: the objects themselves, which later onRoute hooks
  // (the API's, adding its error codes) change in place.
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => void routes.push(route));
  let contract: ResponseContract | undefined;
  const recorder = new ContractRecorder(() => (contract ??= contractOf(app, routes, publicUrl)));
  app.addHook('onSend', (request, reply, payload, done) => {
    recorder.record({
      method: request.method,
      route: request.routeOptions.url,
      status: reply.statusCode,
      contentType: reply.getHeader('content-type') as string | undefined,
      body:
        typeof payload === 'string' ? payload : payload === null || payload === undefined ? '' : undefined,
      headers: reply.getHeaders(),
    });
    done(null, payload);
  });
  return recorder;
}
