// A SQLite database made by a given txmail tree (its own migrations), with one production tenant whose
// monthly count starts far below zero, so no run reaches the plan's cap. Run as a child process:
//   node bench/lib/tree-database.mjs TREE FILE   → prints the tenant's API key
// A tree is a checkout with node_modules and a built dist/ (this one, or an older commit's).
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createBenchTenant } from './tenant.mjs';

const [tree, file] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(join(resolve(tree), path)).href);
const { parseConfig } = await load('dist/config.js');
const { createServices } = await load('dist/services.js');
const { default: pino } = await load('node_modules/pino/pino.js');

const config = parseConfig({ TXMAIL_DATABASE_URL: `sqlite:${file}`, TXMAIL_HOSTNAME: 'mta.bench.example' });
const services = await createServices(config, { logger: pino({ level: 'silent' }) });
const key = await createBenchTenant(services, 'bench@acme.example', { dkim: false, uncapped: true });
await services.close();
console.log(key);
