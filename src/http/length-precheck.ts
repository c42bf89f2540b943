// A string field far over its length limit is refused before Ajv looks at it. Ajv counts a string's
// length in code points, walking the whole string on the event loop (30 ms for a 10 MiB field it then
// refuses). A string of n UTF-16 code units holds between n/2 and n code points, so one longer than
// twice its limit is over it for certain, and `length` says so for free; Ajv still judges the rest
// exactly, in code points.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

interface BodySchema {
  properties?: Record<string, { maxLength?: number }>;
}

export function registerLengthPrecheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema?.body as BodySchema | undefined;
    const body = request.body;
    if (!schema?.properties || typeof body !== 'object' || body === null || Array.isArray(body)) return;
    for (const [name, property] of Object.entries(schema.properties)) {
      const value = (body as Record<string, unknown>)[name];
      const limit = property.maxLength;
      if (limit !== undefined && typeof value === 'string' && value.length > 2 * limit) {
        // The words Ajv's own refusal gets (errors.ts), so the answer does not depend on which one saw it.
        throw new AppError('validation_error', `"${name}" must be at most ${limit} characters`);
      }
    }
  });
}
