import type { AjvCompiler } from '@fastify/ajv-compiler';
import type { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import { loadLater } from './load-later';

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type Factories = NonNullable<SchemaController['compilersFactory']>;
type Compile<F> = (route: unknown) => F;
type Serialize = (data: unknown) => string;

/** What fastify reads from a validator besides calling it: Ajv's `errors` and `schemaEnv`. */
interface LazyValidator {
  (data: unknown, ctx?: unknown): unknown;
  errors?: unknown;
  schemaEnv?: unknown;
}


function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * The two compilers are loaded by the first route that validates or serializes, not at start-up:
 * with their three copies of Ajv they were ~15 ms of the executable's ~125 ms start (measured
 * with them left out: median 116 against 135 ms).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (load-later.ts)
const ajvCompiler = loadLater<{ AjvCompiler: typeof AjvCompiler }>('@fastify/ajv-compiler', () => require('@fastify/ajv-compiler'));
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (load-later.ts)
const serializerCompiler = loadLater<{ SerializerSelector: typeof SerializerSelector }>('@fastify/fast-json-stringify-compiler', () => require('@fastify/fast-json-stringify-compiler'));
// One selector each, as fastify keeps: they reuse an Ajv (a serializer) per schema set and options.
const validatorSelector = once(() => ajvCompiler().AjvCompiler());
const serializerSelector = once(() => serializerCompiler().SerializerSelector());

/**
 * fastify's own validator (Ajv) compiled on a route's first request instead of at start-up.
 * Compiling the whole route table took most of the time before `listen`; a route never called
 * never pays. The wrapper forwards Ajv's `errors` and passes the parent-data context fastify
 * gives real Ajv functions (it checks `schemaEnv`), so validation and coercion are unchanged.
 */
function buildValidator(externalSchemas: unknown, ajvOptions: unknown): Compile<LazyValidator> {
  const compiler = once(() => validatorSelector()(externalSchemas as never, ajvOptions as never) as unknown as Compile<LazyValidator>);
  return (route) => {
    const compiled = once(() => compiler()(route));
    const lazy: LazyValidator = (data, ctx) => {
      const fn = compiled();
      const result = fn(data, ctx);
      lazy.errors = fn.errors;
      return result;
    };
    lazy.schemaEnv = true;
    return lazy;
  };
}

/** fastify's own serializer (fast-json-stringify) compiled on a route's first response. */
function buildSerializer(externalSchemas: unknown, options: unknown): Compile<Serialize> {
  const compiler = once(() => serializerSelector()(externalSchemas, options as never) as Compile<Serialize>);
  return (route) => {
    const compiled = once(() => compiler()(route));
    return (data) => compiled()(data);
  };
}

/** The `schemaController` option of a fastify instance that compiles schemas on first use. */
export function lazySchemaController(): SchemaController {
  // The factories' declared types are Ajv's and fast-json-stringify's own; fastify only calls them.
  return { compilersFactory: { buildValidator: buildValidator as unknown as Factories['buildValidator'], buildSerializer: buildSerializer as unknown as Factories['buildSerializer'] } };
}
