// A bounded loopback load generator for the P2 §3 rows: `clients` keep-alive connections, each
// sending its next request as soon as the previous body has been read to nowhere, until a
// deadline or a request count. Node's own http client, the same for every server compared.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

/** One request of a load mix. */
export interface LoadTarget {
  url: string;
  headers?: Record<string, string>;
}

export interface LoadOptions {
  clients: number;
  /** Requests cycle through these, each client starting at a different one. */
  targets: readonly LoadTarget[];
  /** Stops starting requests after this many milliseconds. */
  durationMs?: number;
  /** Requests per client (the run stops at whichever bound comes first). */
  perClient?: number;
}

export interface LoadResult {
  requests: number;
  failures: number;
  /** Latency of every successful request, in milliseconds, sorted. */
  latencies: number[];
  ms: number;
}

/** The `p` percentile (0..100) of sorted samples (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

/** One GET on a keep-alive agent, its body discarded; the status, or 0 on a socket error. */
function getOnce(agent: Agent, target: LoadTarget): Promise<number> {
  return new Promise((resolve) => {
    const req = request(target.url, { agent, headers: target.headers ?? {} }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    // A hung server fails the request instead of the benchmark hanging.
    req.setTimeout(60_000, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(0)).end();
  });
}

/** Runs the load and returns its latencies; every socket is closed when it returns. */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  if (opts.durationMs === undefined && opts.perClient === undefined) throw new Error('runLoad needs a duration or a request count');
  const agent = new Agent({ keepAlive: true, maxSockets: opts.clients });
  const start = performance.now();
  const deadline = start + (opts.durationMs ?? Number.POSITIVE_INFINITY);
  const perClient = opts.perClient ?? Number.POSITIVE_INFINITY;
  const latencies: number[] = [];
  let failures = 0;
  const client = async (index: number): Promise<void> => {
    for (let i = 0; i < perClient && performance.now() < deadline; i++) {
      const target = opts.targets[(index + i) % opts.targets.length];
      if (!target) return;
      const began = performance.now();
      const status = await getOnce(agent, target);
      if (status === 200) latencies.push(performance.now() - began);
      else failures++;
    }
  };
  try {
    await Promise.all(Array.from({ length: opts.clients }, (_, i) => client(i)));
  } finally {
    agent.destroy();
  }
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length + failures, failures, latencies, ms: performance.now() - start };
}
