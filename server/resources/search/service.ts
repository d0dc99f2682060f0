import { once } from 'node:events';
import { realpath, stat } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import type { GateFactory } from '../../fs/gates';
import { translated } from '../../fs/fs-error';
import { extensionOf, joinPath } from '../../fs/paths';
import { mimeOfExtension } from '../../fs/mime';
import type { PathGate } from '../../fs/scope';
import { createNameMatcher, parseSearchQuery } from '../../search/query';
import { walkTree, type WalkEntry } from '../../search/walker';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';

export interface SearchServiceDeps {
  gates: GateFactory;
  store: Store;
  /** api.md §3.14: one empty line this long after the start of a search still running. */
  heartbeatMs?: number;
}

/** A search as the service sees it. */
export interface SearchRequest {
  /** The search root (user path after the route prefix). */
  path: string;
  query: string;
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

/**
 * Whether an entry may appear: the gate's name check (rules, dotfiles, temporary names), not
 * one of the server's own files, and a symlink only when it resolves inside the scope
 * (escaping links are invisible everywhere, api.md §5.2).
 */
async function visible(root: SearchRoot, entry: WalkEntry): Promise<boolean> {
  if (!root.gate.allows(joinPath(root.path, entry.path))) return false;
  const real = `${root.real}/${entry.path}`;
  if (root.gate.hides(real)) return false;
  return !entry.isSymlink || (await root.gate.confines(real).catch(() => false));
}

/**
 * The matching lines of the walk, one string per batch of the walk. Denied directories are
 * still entered (their children are checked one by one, api.md §3.14); the server's own
 * directories (the cache) are not.
 */
async function* matchingLines(root: SearchRoot, query: string, signal: AbortSignal): AsyncGenerator<string> {
  const matches = createNameMatcher(parseSearchQuery(query), (name) => mimeOfExtension(extensionOf(name)) ?? '');
  const enter = (entry: WalkEntry): boolean => !root.gate.hides(`${root.real}/${entry.path}`);
  for await (const batch of walkTree(root.real, signal, enter)) {
    let lines = '';
    for (const entry of batch) {
      if (matches(entry.name) && (await visible(root, entry))) lines += `${JSON.stringify({ dir: entry.isDir, path: entry.path })}\n`;
    }
    if (lines !== '') yield lines;
  }
}

/**
 * Pumps the lines into a stream with backpressure, plus the single keep-alive line; the walk
 * stops when the stream is closed (client gone) or the request's signal aborts.
 */
function lineStream(lines: (signal: AbortSignal) => AsyncGenerator<string>, req: SearchRequest, heartbeatMs: number): Readable {
  const out = new PassThrough();
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, req.signal]);
  out.once('close', () => stop.abort());
  const heartbeat = setTimeout(() => {
    if (!out.writableEnded && !out.destroyed) out.write('\n');
  }, heartbeatMs);
  const pump = async (): Promise<void> => {
    for await (const chunk of lines(signal)) {
      if (!out.write(chunk)) await once(out, 'drain', { signal });
    }
  };
  pump().then(
    () => out.end(),
    (err: unknown) => {
      if (!signal.aborted) out.destroy(err instanceof Error ? err : new Error(String(err)));
    },
  ).finally(() => clearTimeout(heartbeat));
  return out;
}

/** Creates the search service. */
export function createSearchService(deps: SearchServiceDeps): SearchService {
  const heartbeatMs = deps.heartbeatMs ?? 5000;
  return {
    async search(user, req) {
      const gate = await deps.gates.forUser(user, deps.store.data().settings);
      const target = await gate.resolve(req.path);
      const real = await translated(() => realpath(target.real));
      // A search below a file finds nothing (the walk skips its root), as upstream.
      const isDir = (await translated(() => stat(real))).isDirectory();
      const root: SearchRoot = { gate, path: target.path, real };
      return lineStream((signal) => (isDir ? matchingLines(root, req.query, signal) : empty()), req, heartbeatMs);
    },
  };
}

/** The lines of a search below a file: none. */
async function* empty(): AsyncGenerator<string> {}
