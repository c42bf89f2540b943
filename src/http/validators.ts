// Request validators compiled once per process for each distinct schema. By default every Fastify
// instance makes its own Ajv (compiling Ajv's meta-schema) and compiles each route's schemas again:
// 25-35 ms of CPU, a third of building an app and answering its first requests (docs/benchmarks.md,
// "The test suite"). The service builds one API app, but a process can build several (the test suite
// builds hundreds, one per test), and identical schemas make identical validators, so they are shared:
// one Ajv per set of shared schemas and options (Fastify's own pool), one validator per schema text.
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

type ValidatorFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;
type Compile = FastifySchemaCompiler<unknown>;

const pool = AjvCompiler() as unknown as (...args: Parameters<ValidatorFactory>) => Compile;
const byCompiler = new WeakMap<Compile, Map<string, ReturnType<Compile>>>();

export const sharedValidators: ValidatorFactory = (externalSchemas, options) => {
  const compile = pool(externalSchemas, options);
  let validators = byCompiler.get(compile);
  if (!validators) byCompiler.set(compile, (validators = new Map()));
  const known = validators;
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
  return shared as unknown as ReturnType<ValidatorFactory>;
};
