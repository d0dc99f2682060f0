import type { SearchResult } from '@contract/search';
import { apiPaths, withQuery } from '../paths';
import { request } from './http';

/** One search hit (api.md §3.14): a path relative to the search root, and whether it is a folder. */
export type SearchHit = SearchResult;

/**
 * GET /api/search{folder}?query=: calls `onHit` for each result as the server streams it
 * (newline-delimited JSON; the empty keep-alive line is skipped). Aborting `signal` stops it.
 */
export async function search({ folder, query }: { folder: string; query: string }, onHit: (hit: SearchHit) => void, signal: AbortSignal): Promise<void> {
  const response = await request(withQuery(apiPaths.search(folder), { query }), { signal });
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pending += value;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) onHit(JSON.parse(line) as SearchHit);
  }
  if (pending.trim()) onHit(JSON.parse(pending) as SearchHit);
}
