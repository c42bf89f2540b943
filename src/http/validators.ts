// Request validators compiled once per process for each distinct schema. By default every Fastify
// instance makes its own Ajv (compiling Ajv's meta-schema) and compiles each route's schemas again:
// about 30 ms of CPU an app (a test app's start, first answers and close took 100-115 ms with it, 70-79
// without; docs/benchmarks.md, "The test suite"). The service builds one API app, but a process can
// build several (the test suite builds hundreds, one per test), and identical schemas make identical
// validators, so they are shared: one Ajv per set of shared schemas and options (Fastify's own pool),
// one validator per schema text.
import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';

/**
 * What Fastify hands the compiler the factory makes, and gets back: @fastify/ajv-compiler's types say a
 * bare schema, but Fastify passes the route's schema with where it applies (fastify/lib/validation.js).
 */
interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpPart?: string;
}
type Compile = (route: RouteSchema) => ReturnType<ReturnType<BuildCompilerFromPool>>;

const pool: BuildCompilerFromPool = AjvCompiler();
const byCompiler = new WeakMap<object, Map<string, ReturnType<Compile>>>();

export const sharedValidators: BuildCompilerFromPool = (externalSchemas, options) => {
  // The pool tells Ajvs apart by the shared schemas and customOptions alone: plugins or an onCreate
  // hook would make another app's Ajv look the same. No app of txmail's gives them.
  if (options?.plugins?.length || options?.onCreate) {
    throw new Error('Ajv plugins and onCreate are not supported with shared validators (http/validators.ts)');
  }
  const compile = pool(externalSchemas, options) as unknown as Compile;
  const known = byCompiler.get(compile) ?? new Map<string, ReturnType<Compile>>();
  byCompiler.set(compile, known);
  const shared: Compile = (route) => {
    // With a compiler of its own, Fastify hands a headers schema over as written, without lower-casing
    // its keys as it does for its default one; no route has one, and none may without doing that here.
    if (route.httpPart === 'headers') {
      throw new Error(`${route.method} ${route.url}: a headers schema is not supported (http/validators.ts)`);
    }
    const text = JSON.stringify(route.schema);
    let validate = known.get(text);
    if (!validate) known.set(text, (validate = compile(route)));
    return validate;
  };
  return shared as unknown as ReturnType<BuildCompilerFromPool>;
};
