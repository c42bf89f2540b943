// The dashboard's API types (web/src/api-types.ts) are generated from /openapi.json: this test fails
// when the committed file is not what the current document generates; `npm run api-types` rewrites it.
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { startTestEnv } from './helpers/services.js';

const TARGET = fileURLToPath(new URL('../web/src/api-types.ts', import.meta.url));

const HEADER = `// Generated from /openapi.json by openapi-typescript (test/api-types.test.ts): do not edit.
// \`npm run api-types\` rewrites it after a change to the API's schemas (src/http/schemas/, the routes).
`;

it('web/src/api-types.ts is what /openapi.json generates', async () => {
  const env = await startTestEnv(databaseKinds[0]!);
  try {
    const doc = (await env.app.inject({ method: 'GET', url: '/openapi.json' })).json() as object;
    // rootTypes: `Email`, `Webhook`… beside `components['schemas'][…]`; enumValues: the lists of an
    // enum's values (the event types a webhook can subscribe to), so the dashboard copies none.
    const ast = await openapiTS(doc as never, {
      rootTypes: true,
      rootTypesNoSchemaPrefix: true,
      enumValues: true,
      silent: true,
    });
    const source = await prettier.format(HEADER + astToString(ast), {
      ...(await prettier.resolveConfig(TARGET)),
      filepath: TARGET,
    });
    await expect(source).toMatchFileSnapshot(TARGET);
  } finally {
    await env.close();
  }
});
