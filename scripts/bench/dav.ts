// The WebDAV benchmark (beyond.md §1), against the built executable: PROPFIND Depth 1 of a folder
// of 10,000 entries against GET /api/resources of the same folder (interleaved, medians); a
// chunked PUT of 1 GiB against the API's raw upload (POST /api/resources with Content-Length) of
// the same bytes, with the server's peak RSS after the first PUT (fresh server, only a 16 MiB warm-up before it); and
// 20 clients doing PROPFIND, GET and PUT for 30 s (requests, errors, latencies). Figures only.
// Sizes: BENCH_DAV_FILES (10000), BENCH_DAV_BYTES (1G; K/M/G), BENCH_DAV_CLIENTS (20),
// BENCH_DAV_SECONDS (30), BENCH_RUNS (3), BENCH_DAV_UPLOAD_ROUNDS (4: each upload way, alternately).
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { envNumber } from './filemgr-process';
import { apiCall, davCall, peakRssOf, startDavServer, type Answer, type DavServer } from './dav-client';
import { median, type Benchmark, type Figure } from './measure';
import { sizeFromEnv } from './upload';

const PROPFIND_BODY = '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';
const SMALL = 64 * 1024;

async function makeFolder(dir: string, count: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const names = Array.from({ length: count }, (_, i) => `file-${i}.${['txt', 'jpg', 'mp4', 'bin', 'md'][i % 5] ?? 'txt'}`);
  for (let i = 0; i < names.length; i += 256) await Promise.all(names.slice(i, i + 256).map((n) => writeFile(join(dir, n), 'x'.repeat(64))));
}

function ok(what: string, answer: Answer, statuses: number[]): Answer {
  if (!statuses.includes(answer.status)) throw new Error(`${what} answered ${answer.status}`);
  return answer;
}

function propfind(server: DavServer, path: string, agent?: Agent): Promise<Answer> {
  const source = Buffer.from(PROPFIND_BODY);
  return davCall(server, { method: 'PROPFIND', path, agent, headers: { depth: '1', 'content-type': 'text/xml' }, body: { source, total: source.length, length: true } });
}

/** PROPFIND Depth 1 against GET /api/resources of the same folder, alternately; their medians. */
async function listings(server: DavServer, runs: number): Promise<[number, number]> {
  const dav: number[] = [];
  const api: number[] = [];
  ok('warm-up PROPFIND', await propfind(server, '/dav/big/'), [207]);
  for (let i = 0; i < runs; i++) {
    dav.push(ok('PROPFIND', await propfind(server, '/dav/big/'), [207]).ms);
    api.push(ok('GET /api/resources', await apiCall(server, { method: 'GET', path: '/api/resources/big/' }), [200]).ms);
  }
  return [median(dav), median(api)];
}

function chunkedPut(server: DavServer, source: Buffer, total: number): Promise<Answer> {
  return davCall(server, { method: 'PUT', path: '/dav/put.bin', headers: { 'content-type': 'application/octet-stream' }, body: { source, total } }).then((a) => ok('chunked PUT', a, [201, 204]));
}

function rawPost(server: DavServer, source: Buffer, total: number): Promise<Answer> {
  return apiCall(server, { method: 'POST', path: '/api/resources/post.bin?override=true', headers: { 'content-type': 'application/octet-stream' }, body: { source, total, length: true } }).then((a) => ok('raw POST', a, [200]));
}

/**
 * A fresh server: the peak RSS after its first chunked PUT of `total` bytes (nothing but a 16 MiB
 * warm-up of each way before it), then PUT and the API's raw POST alternately, `rounds` each (medians).
 */
async function uploads(total: number, rounds: number): Promise<{ put: number; post: number; peak: number }> {
  const root = await mkdtemp(join(tmpdir(), 'filemgr-bench-dav-up-'));
  const server = await startDavServer(root);
  try {
    const source = randomBytes(16 * 1024 * 1024);
    await chunkedPut(server, source, source.length);
    await rawPost(server, source, source.length);
    const puts = [(await chunkedPut(server, source, total)).ms];
    const peak = await peakRssOf(server.pid);
    const posts = [(await rawPost(server, source, total)).ms];
    for (let i = 1; i < rounds; i++) {
      puts.push((await chunkedPut(server, source, total)).ms);
      posts.push((await rawPost(server, source, total)).ms);
    }
    return { put: median(puts), post: median(posts), peak };
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
}

interface Load {
  requests: number;
  errors: number;
  latencies: Record<'PROPFIND' | 'GET' | 'PUT', number[]>;
}

interface Step {
  kind: keyof Load['latencies'];
  send: () => Promise<Answer>;
  want: readonly number[];
}

/** One request of the load: its latency when it answered as wanted, else an error. */
async function attempt(step: Step, load: Load): Promise<void> {
  load.requests++;
  try {
    const answer = await step.send();
    if (step.want.includes(answer.status)) load.latencies[step.kind].push(answer.ms);
    else load.errors++;
  } catch {
    load.errors++;
  }
}

/** One client: PROPFIND of its folder, GET of a file, PUT of its own file, until the deadline. */
async function client(server: DavServer, at: { id: number; deadline: number }, load: Load): Promise<void> {
  const { id, deadline } = at;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const source = randomBytes(SMALL);
  const steps: Step[] = [
    { kind: 'PROPFIND', send: () => propfind(server, '/dav/load/', agent), want: [207] },
    { kind: 'GET', send: () => davCall(server, { method: 'GET', path: `/dav/load/shared-${id % 5}.bin`, agent }), want: [200] },
    { kind: 'PUT', send: () => davCall(server, { method: 'PUT', path: `/dav/load/client-${id}.bin`, agent, body: { source, total: SMALL, length: true } }), want: [201, 204] },
  ];
  try {
    for (let turn = 0; performance.now() < deadline; turn++) await attempt(steps[turn % steps.length]!, load);
  } finally {
    agent.destroy();
  }
}

async function concurrent(server: DavServer, root: string, size: { clients: number; seconds: number }): Promise<Load> {
  const { clients, seconds } = size;
  await mkdir(join(root, 'load'), { recursive: true });
  for (let i = 0; i < 5; i++) await writeFile(join(root, 'load', `shared-${i}.bin`), randomBytes(SMALL));
  for (let i = 0; i < 50; i++) await writeFile(join(root, 'load', `other-${i}.txt`), 'x');
  const load: Load = { requests: 0, errors: 0, latencies: { PROPFIND: [], GET: [], PUT: [] } };
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: clients }, (_, id) => client(server, { id, deadline }, load)));
  return load;
}

const mbps = (bytes: number, ms: number): string => `${(bytes / 2 ** 20 / (ms / 1000)).toFixed(1)} MiB/s`;

interface Sizes {
  files: number;
  total: number;
  clients: number;
  seconds: number;
  runs: number;
  uploadRounds: number;
}

async function uploadFigures(sizes: Sizes, log: (line: string) => void): Promise<Figure[]> {
  const { total } = sizes;
  const up = await uploads(total, sizes.uploadRounds);
  log(`  chunked PUT ${mbps(total, up.put)}, raw POST ${mbps(total, up.post)}: PUT at ${(up.post / up.put).toFixed(2)}x the API's throughput; peak RSS after the PUT ${(up.peak / 2 ** 20).toFixed(1)} MiB`);
  const mib = Math.round(total / 2 ** 20);
  return [
    // Time for the same bytes: a ratio below 1 means the PUT is faster than the API upload.
    { label: `chunked PUT of ${mib} MiB (time)`, value: up.put, unit: 'ms', baseline: { label: 'raw POST /api/resources', value: up.post } },
    { label: `server peak RSS after the ${mib} MiB PUT`, value: up.peak, unit: 'B', baseline: { label: 'budget', value: 200 * 2 ** 20 } },
  ];
}

/** The server of the listing and load parts and the root it serves. */
interface Site {
  server: DavServer;
  root: string;
}

async function listingFigures({ server, root }: Site, sizes: Sizes, log: (line: string) => void): Promise<Figure[]> {
  log(`  creating ${sizes.files} files...`);
  await makeFolder(join(root, 'big'), sizes.files);
  const [dav, api] = await listings(server, sizes.runs);
  log(`  PROPFIND Depth 1 of ${sizes.files} entries at ${(dav / api).toFixed(2)}x GET /api/resources`);
  return [{ label: `PROPFIND Depth 1 of ${sizes.files} entries`, value: dav, unit: 'ms', baseline: { label: 'GET /api/resources', value: api } }];
}

async function loadFigures({ server, root }: Site, sizes: Sizes, log: (line: string) => void): Promise<Figure[]> {
  const { clients, seconds } = sizes;
  const load = await concurrent(server, root, { clients, seconds });
  const { PROPFIND, GET, PUT } = load.latencies;
  log(`  ${clients} clients for ${seconds} s: ${load.requests} requests (${(load.requests / seconds).toFixed(0)}/s), ${load.errors} errors`);
  return [
    { label: `load: PROPFIND median (${PROPFIND.length} ok)`, value: median(PROPFIND), unit: 'ms' },
    { label: `load: GET 64 KiB median (${GET.length} ok)`, value: median(GET), unit: 'ms' },
    { label: `load: PUT 64 KiB median (${PUT.length} ok)`, value: median(PUT), unit: 'ms' },
  ];
}

/** One part of the benchmark; a part that fails (a method not served yet) is reported and skipped. */
async function part(name: string, measure: () => Promise<Figure[]>, log: (line: string) => void): Promise<Figure[]> {
  try {
    return await measure();
  } catch (err) {
    log(`  ${name}: not measured (${err instanceof Error ? err.message : String(err)})`);
    return [];
  }
}

async function run(log: (line: string) => void): Promise<Figure[]> {
  const sizes: Sizes = {
    files: envNumber('BENCH_DAV_FILES', 10_000),
    total: sizeFromEnv(process.env.BENCH_DAV_BYTES, 1024 ** 3),
    clients: envNumber('BENCH_DAV_CLIENTS', 20),
    seconds: envNumber('BENCH_DAV_SECONDS', 30),
    runs: envNumber('BENCH_RUNS', 3),
    uploadRounds: envNumber('BENCH_DAV_UPLOAD_ROUNDS', 4),
  };
  const figures = await part('uploads', () => uploadFigures(sizes, log), log);
  const root = await mkdtemp(join(tmpdir(), 'filemgr-bench-dav-'));
  const server = await startDavServer(root);
  try {
    figures.push(...(await part('listing', () => listingFigures({ server, root }, sizes, log), log)));
    figures.push(...(await part('load', () => loadFigures({ server, root }, sizes, log), log)));
    return figures;
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
}

export const davBenchmark: Benchmark = {
  name: 'dav',
  title: 'B1 WebDAV (built executable): PROPFIND against GET /api/resources, chunked PUT against the raw POST, 20 clients for 30 s',
  run,
};
