// Starting a worker thread (or a pool's threads) on a module of ours. Compiled (dist/), the entry is JavaScript and Node loads
// it as it is. Run from source (the tests: vitest compiles TypeScript for its own process, not for the
// threads it starts), the entry is a .ts file: the thread first registers a loader hook that compiles
// each .ts module it imports with the TypeScript compiler (a development dependency), so the thread runs
// the code beside it rather than whatever the last build left in dist/.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startThread(entry: URL, options: WorkerOptions = {}): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const boot = `
    require('node:module').register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(tsLoader())}));
    import(${JSON.stringify(entry.href)}).catch((err) => { setImmediate(() => { throw err; }); });`;
  return new Worker(boot, { ...options, eval: true });
}

/**
 * The same for a thread pool (piscina), which imports its entry by path: from source, each thread
 * first imports a module that registers the loader hook (`--import`), then the .ts entry.
 */
export function poolThread(entry: URL): { filename: string; execArgv: string[] } {
  if (!entry.pathname.endsWith('.ts')) return { filename: entry.href, execArgv: [] };
  const register = `import { register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(tsLoader())}));`;
  return {
    filename: fileURLToPath(entry),
    execArgv: ['--import', `data:text/javascript,${encodeURIComponent(register)}`],
  };
}

/**
 * The module `name` (as compiled: `./x.js`) beside `base` (the caller's import.meta.url): its .ts
 * source when the caller runs from source.
 */
export function besideModule(name: string, base: string): URL {
  return new URL(base.endsWith('.ts') ? name.replace(/\.js$/, '.ts') : name, base);
}

/**
 * ESM loader hooks: `./x.js` imported by a .ts module is `./x.ts` when that exists (the sources name
 * their imports as compiled), and a .ts module is compiled to JavaScript on its own
 * (transpileModule: types are dropped, nothing is checked; `tsc` checks them).
 */
function tsLoader(): string {
  const typescript = createRequire(import.meta.url).resolve('typescript');
  return `
    import { createRequire } from 'node:module';
    import { existsSync } from 'node:fs';
    import { fileURLToPath } from 'node:url';
    const ts = createRequire(${JSON.stringify(typescript)})(${JSON.stringify(typescript)});
    export async function resolve(specifier, context, next) {
      if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
        const url = new URL(specifier.slice(0, -3) + '.ts', context.parentURL);
        if (existsSync(fileURLToPath(url))) return { url: url.href, format: 'module', shortCircuit: true };
      }
      return next(specifier, context);
    }
    export async function load(url, context, next) {
      if (!url.endsWith('.ts')) return next(url, context);
      const { source } = await next(url, { ...context, format: 'module' });
      const compiled = ts.transpileModule(String(source), {
        fileName: fileURLToPath(url),
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
      });
      return { format: 'module', source: compiled.outputText, shortCircuit: true };
    }`;
}
