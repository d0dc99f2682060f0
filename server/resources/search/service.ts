import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { GateFactory } from '../../fs/gates';
import { extensionOf, joinPath } from '../../fs/paths';
import { mimeOfExtension } from '../../fs/mime';
import type { PathGate } from '../../fs/scope';
import { createNameMatcher, parseSearchQuery } from '../../search/query';
import { detailsOf, realPathOf, relativePath, walkRoot, walkTree, type WalkEntry } from '../../search/walker';
import { KIND } from '../../index/index-db';
import type { SearchIndex } from '../../index/search-index';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';

export interface SearchServiceDeps {
  gates: GateFactory;
  store: Store;
  /** The search index; searches walk the disk without one, or until it is built. */
  index?: SearchIndex;
  /** api.md §3.14: one empty line this long after the start of a search still running. */
  heartbeatMs?: number;
}

/** A search as the service sees it. */
export interface SearchRequest {
  /** The search root (user path after the route prefix). */
  path: string;
  query: string;
  /** Each line also carries the match's size and modified time (stat of the match only). */
  details?: boolean;
  /** Aborted when the client went away: the walk stops. */
  signal: AbortSignal;
}

export interface SearchService {
  /** GET /api/search{p}: newline-delimited `{"dir","path"}` matches, streamed as found. */
  search(user: UserRecord, req: SearchRequest): Promise<Readable>;
}

interface SearchRoot {
  gate: PathGate;
  /** Clean user path of the root. */
  path: string;
  /** Resolved real path of the root directory. */
  real: string;
}

// Lines are sent in chunks of this size, or after FLUSH_MS at the latest: one write per line
// cost more than the whole walk of a large tree.
const FLUSH_BYTES = 16 * 1024;
const FLUSH_MS = 25;

/**
 * Whether a matching entry may appear: the gate's name check (rules, dotfiles, temporary
 * names), not one of the server's own files, and a symlink only when it resolves inside the
 * scope (escaping links are invisible everywhere, api.md §5.2).
 */
async function visible(root: SearchRoot, found: { rel: string; real: string; link: boolean }): Promise<boolean> {
  if (!root.gate.allows(joinPath(root.path, found.rel))) return false;
  if (root.gate.hides(found.real)) return false;
  return !found.link || (await root.gate.confines(found.real).catch(() => false));
}

/**
 * The matching lines of the walk, one string per batch of the walk. Denied directories are
 * still entered (their children are checked one by one, api.md §3.14); the server's own
 * directories (the cache) are not.
 */
async function* matchingLines(root: SearchRoot, req: Pick<SearchRequest, 'query' | 'details'>, signal: AbortSignal): AsyncGenerator<string> {
  const { query } = req;
  const matches = createNameMatcher(parseSearchQuery(query), (name) => mimeOfExtension(extensionOf(name)) ?? '');
  const enter = (entry: WalkEntry): boolean => !root.gate.hides(realPathOf(entry));
  const report = (entry: WalkEntry): boolean => matches(entry.name);
  for await (const batch of walkTree(root.real, signal, { enter, report })) {
    let lines = '';
    for (const entry of batch) {
      const rel = relativePath(root.real, entry);
      if (!(await visible(root, { rel, real: realPathOf(entry), link: entry.isSymbolicLink() }))) continue;
      const line = { dir: entry.isDirectory(), path: rel, ...(req.details ? await detailsOf(realPathOf(entry)) : {}) };
      lines += `${JSON.stringify(line)}\n`;
    }
    if (lines !== '') yield lines;
  }
}

/**
 * The matching lines from the index (beyond.md §7), checked exactly as the walk checks its
 * entries; the walk answers when the index cannot (not built yet, a folder it has not seen, too
 * many candidates).
 */
async function* indexedLines(root: SearchRoot & { index: SearchIndex }, req: Pick<SearchRequest, 'query' | 'details'>, signal: AbortSignal): AsyncGenerator<string> {
  const query = parseSearchQuery(req.query);
  const matches = createNameMatcher(query, (name) => mimeOfExtension(extensionOf(name)) ?? '');
  const hits = await root.index.find(root.real, { terms: query.terms, matches, signal });
  if (hits === null) {
    yield* matchingLines(root, req, signal);
    return;
  }
  let lines = '';
  for (const hit of hits) {
    if (signal.aborted) return;
    const real = `${root.real === '/' ? '' : root.real}/${hit.rel}`;
    if (!(await visible(root, { rel: hit.rel, real, link: hit.kind === KIND.link }))) continue;
    const line = { dir: hit.kind === KIND.dir, path: hit.rel, ...(req.details ? await detailsOf(real) : {}) };
    lines += `${JSON.stringify(line)}\n`;
    if (lines.length >= FLUSH_BYTES) {
      yield lines;
      lines = '';
    }
  }
  if (lines !== '') yield lines;
}

/** The signal of a search: aborted by the request's signal or when the stream closes. */
function searchSignal(out: PassThrough, req: SearchRequest): AbortSignal {
  // A plain controller: a composite AbortSignal.any re-evaluates on every `aborted` read.
  const stop = new AbortController();
  out.once('close', () => stop.abort());
  if (req.signal.aborted) stop.abort();
  else req.signal.addEventListener('abort', () => stop.abort(), { once: true });
  return stop.signal;
}

/**
 * Pumps the lines into a stream, coalesced and with backpressure, plus the single keep-alive
 * line; the walk stops when the stream is closed (client gone) or the request's signal aborts.
 */
function lineStream(lines: (signal: AbortSignal) => AsyncGenerator<string>, req: SearchRequest, heartbeatMs: number): Readable {
  const out = new PassThrough();
  const signal = searchSignal(out, req);
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = (): boolean => {
    clearTimeout(timer);
    timer = undefined;
    const chunk = pending;
    pending = '';
    return chunk === '' || out.destroyed || out.write(chunk);
  };
  const heartbeat = setTimeout(() => {
    if (!out.writableEnded && !out.destroyed) out.write('\n');
  }, heartbeatMs);
  const pump = async (): Promise<void> => {
    for await (const chunk of lines(signal)) {
      pending += chunk;
      if (pending.length < FLUSH_BYTES) timer ??= setTimeout(flush, FLUSH_MS);
      else if (!flush()) await once(out, 'drain', { signal });
    }
    flush();
  };
  pump()
    .then(
      () => out.end(),
      (err: unknown) => {
        if (!signal.aborted) out.destroy(err instanceof Error ? err : new Error(String(err)));
      },
    )
    .finally(() => {
      clearTimeout(heartbeat);
      clearTimeout(timer);
    });
  return out;
}

/** Creates the search service. */
export function createSearchService(deps: SearchServiceDeps): SearchService {
  const heartbeatMs = deps.heartbeatMs ?? 5000;
  return {
    async search(user, req) {
      const gate = await deps.gates.forUser(user, deps.store.data().settings);
      const target = await gate.resolve(req.path);
      // A search below a file finds nothing (the walk skips its root), as upstream.
      const { real, isDir } = await walkRoot(target.real);
      const root: SearchRoot = { gate, path: target.path, real };
      const index = deps.index?.ready() ? deps.index : undefined;
      const lines = (signal: AbortSignal) => (!isDir ? empty() : index ? indexedLines({ ...root, index }, req, signal) : matchingLines(root, req, signal));
      return lineStream(lines, req, heartbeatMs);
    },
  };
}

/** The lines of a search below a file: none. */
async function* empty(): AsyncGenerator<string> {}
