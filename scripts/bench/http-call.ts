// One HTTP request of a benchmark, timed: node:http without timeouts (an extraction of 1 GiB may
// take minutes under load), over a given keep-alive agent or a fresh connection.
import { request, type Agent } from 'node:http';
import { performance } from 'node:perf_hooks';

/** What a timed request answered. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
}

/** A request: method, full URL, headers, a body (string or bytes), and the agent (default: none, a fresh connection). */
export interface Ask {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  agent?: Agent;
}

/** Sends one request and reads its answer to the end; `ms` spans from the send to the last byte. */
export function ask(a: Ask): Promise<Answer> {
  const start = performance.now();
  const length = a.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(a.body)) };
  return new Promise((resolve, reject) => {
    const req = request(a.url, { method: a.method, headers: { ...a.headers, ...length }, agent: a.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - start }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(a.body);
  });
}

/** `ask`, failing unless the answer has status `want`. */
export async function expectAsk(a: Ask, want: number): Promise<Answer> {
  const res = await ask(a);
  if (res.status !== want) throw new Error(`${a.method} ${new URL(a.url).pathname} answered ${res.status} (expected ${want}): ${res.body.slice(0, 200)}`);
  return res;
}
