/** What the index builder (build-worker.ts) is asked: build `file` from the tree below `root`. */
export interface BuildRequest {
  /** The real path of the indexed root. */
  root: string;
  /** The index file to (re)place. */
  file: string;
  /** Real paths left out with everything below them (the server's own cache). */
  skip: string[];
}

export interface BuildResult {
  entries: number;
  ms: number;
}

/** The builder's one message. */
export type BuildMessage = { ok: true; result: BuildResult } | { ok: false; error: string };

/** The worker's bundle (server/lib/worker-code.ts). */
export const INDEX_WORKER = { asset: 'index-worker.js', entry: 'server/index/build-worker.ts' };
