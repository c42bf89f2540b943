#!/usr/bin/env node
// bench/bounce-fixtures: the figures of issue 16 over our golden bounce and complaint fixtures
// (test/fixtures/inbound/manifest.json), for a build of the report parser: classified right (bounced,
// delayed, complaint, unsubscribe, recorded, automatic reply, nothing), hard bounces that would
// suppress the address, soft bounces that would (must be none), complaints recognised, and, when the
// classifier gives categories, categories right; then every fixture that missed.
//   node bench/bounce-fixtures.mjs [--dist dist] [--only blind/]
// --dist names the build to judge (npm run build makes dist/; another branch's build works too, as long
// as it exports parseReport from bounce/parse-report.js and decideEffects from inbound/decide-effects.js);
// --only judges the fixtures whose file name starts with the given prefix (a folder of the manifest).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { describeFigures, figures, judge, loadManifest } from './lib/bounce-fixtures.mjs';

const { values } = parseArgs({
  options: { dist: { type: 'string', default: 'dist' }, only: { type: 'string' } },
});
const dist = pathToFileURL(`${resolve(values.dist)}/`);
const { parseReport } = await import(new URL('bounce/parse-report.js', dist).href);
const { decideEffects } = await import(new URL('inbound/decide-effects.js', dist).href);

const results = [];
const entries = loadManifest().filter((e) => !values.only || e.file.startsWith(values.only));
for (const entry of entries) results.push(await judge({ parseReport, decideEffects }, entry));
console.log(
  `${results.length} fixtures${values.only ? ` under ${values.only}` : ''}, judged with ${values.dist}`,
);
console.log(describeFigures(figures(results)));
