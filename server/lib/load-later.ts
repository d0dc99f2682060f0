import { createRequire } from 'node:module';

/**
 * A package loaded by its first use instead of at start-up (each one evaluated at start costs
 * every start its time). `bundled` must be a literal `require('<name>')`: that is what esbuild
 * follows into the executable's bundle, and vitest provides require too. `npm run dev` runs the
 * sources as ES modules under tsx, where there is no require: there the package is loaded by name.
 */
export function loadLater<T>(name: string, bundled: () => unknown): () => T {
  let loaded: { value: T } | undefined;
  return () => {
    loaded ??= { value: (typeof require === 'function' ? bundled() : createRequire(import.meta.url)(name)) as T };
    return loaded.value;
  };
}
