// Every shared response schema, registered on the app (app.addSchema) so routes refer to them by $ref
// and the OpenAPI document lists them as components. A new area adds its module's list here.
import type { FastifyInstance } from 'fastify';
import { accountSchemas } from './account.js';
import { authSchemas } from './auth.js';
import { domainSchemas } from './domains.js';
import { emailSchemas } from './emails.js';
import { suppressionSchemas } from './suppressions.js';
import { teamSchemas } from './teams.js';
import { webhookSchemas } from './webhooks.js';

export const SHARED_SCHEMAS: readonly { $id: string }[] = [
  ...emailSchemas,
  ...accountSchemas,
  ...domainSchemas,
  ...suppressionSchemas,
  ...webhookSchemas,
  ...authSchemas,
  ...teamSchemas,
];

export function registerSharedSchemas(app: FastifyInstance): void {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
}

export { openApiWebhooks } from './webhooks.js';
