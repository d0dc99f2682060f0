import type { Metafile } from 'esbuild';

/**
 * Every output file that `entryOut` (a key of `metafile.outputs`) imports statically, directly or
 * through other chunks, in a breadth-first order (the nearest first). The browser discovers these
 * only as it parses each module, one level of the graph per round trip; listed in index.html as
 * `<link rel="modulepreload">` they are all fetched at once, beside the entry.
 */
export function staticImportsOf(metafile: Metafile, entryOut: string): string[] {
  const seen = new Set<string>([entryOut]);
  const order: string[] = [];
  const queue = [entryOut];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const imported of metafile.outputs[next]?.imports ?? []) {
      if (imported.kind !== 'import-statement' || imported.external || seen.has(imported.path)) continue;
      seen.add(imported.path);
      order.push(imported.path);
      queue.push(imported.path);
    }
  }
  return order;
}
