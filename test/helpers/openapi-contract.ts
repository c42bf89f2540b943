// The OpenAPI contract (docs/design.md §3): every answer an operation gives must be one its document
// describes: a documented status, a documented media type, a body valid against its schema. `check`
// judges one answer; `recordContract` does it for every answer a test app gives and records what does
// not match: the test file that got it fails (test/openapi-contract-file.ts), and the run lists them
// all with the count of answers checked (test/openapi-contract-setup.ts).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { CONTRACT_DIR_VARIABLE, recordFinding, type Finding } from './contract-findings.js';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
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
}

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
 * Checks every answer `app` gives against its own /openapi.json, recording mismatches (and how many
 * answers were checked, when `flush` runs) in the run's folder. Call before `app.ready()`.
 */
export function recordContract(app: FastifyInstance): { flush(): void } {
  const dir = process.env[CONTRACT_DIR_VARIABLE];
  if (dir === undefined) return { flush() {} };
  let contract: ResponseContract | undefined;
  let checked = 0;
  const file = join(dir, `${process.pid}.jsonl`);
  app.addHook('onSend', (request, reply, payload, done) => {
    const route = request.routeOptions.url;
    contract ??= new ResponseContract(app.swagger() as unknown as OpenApiDocument);
    const verdict = contract.check({
      method: request.method,
      route,
      status: reply.statusCode,
      contentType: reply.getHeader('content-type') as string | undefined,
      body:
        typeof payload === 'string' ? payload : payload === null || payload === undefined ? '' : undefined,
    });
    if (!('skipped' in verdict)) checked++;
    if ('ok' in verdict && !verdict.ok) {
      const finding: Finding = {
        method: request.method,
        route: route!,
        status: reply.statusCode,
        problem: verdict.problem,
        file: expect.getState().testPath,
      };
      recordFinding(finding);
      appendFileSync(file, JSON.stringify(finding) + '\n');
    }
    done(null, payload);
  });
  return {
    flush() {
      if (checked > 0) appendFileSync(file, JSON.stringify({ checked }) + '\n');
      checked = 0;
    },
  };
}
