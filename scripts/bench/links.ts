// B2 links (beyond.md §2), against the built executable (--noauth: the signed-in owner is its admin):
// - Uploads through an upload link (no account): the raw POST /api/public/upload/{hash}/{name}, and
//   tus at /api/public/tus/{hash}/{name} (10 MiB PATCHes), against the same file uploaded by the
//   signed-in owner into the same folder (raw POST /api/resources/<path>, and /api/tus/<path>).
//   The link is made by POST /api/share/inbox/ with kind 'upload'. Each round sends the four in a
//   rotating order and removes the files; BENCH_LINK_ROUNDS rounds (default 5: 10 files through the
//   link, under its 60 files a minute per address). Rows: the link's time, baseline the owner's
//   (goal: the link's speed >= 0.9x the owner's, i.e. time <= 1.11x). BENCH_LINK_MB (default 256).
// - Download limit: GET /api/public/dl/{hash} of a 1 MiB file through a link with maxDownloads
//   1,000,000 (so every 200 is counted), against a link of the same file without a limit;
//   BENCH_DL_REQUESTS sequential requests each (default 200) over a keep-alive connection, in
//   interleaved blocks of 20; medians. Goal: no visible cost (ratio near 1). The owner's GET /api/raw
//   of the file is logged beside them.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { envNumber, startFilemgr, type RunningFilemgr } from './filemgr-process';
import { expectAsk } from './http-call';
import { median, type Benchmark, type Figure } from './measure';

const MiB = 2 ** 20;
const TUS_CHUNK = 10 * MiB;
const DL_BLOCK = 20;

/** Sends `total` bytes of `source` (repeated from `from`) as a request body; resolves with the status and Location. */
function sendBytes(url: string, o: { method: string; headers: Record<string, string>; source: Buffer; from: number; total: number; agent: Agent }): Promise<{ status: number; location: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: o.method, agent: o.agent, headers: { ...o.headers, 'content-length': String(o.total) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: String(res.headers.location ?? '') }));
    });
    req.on('error', reject);
    void (async () => {
      for (let done = 0; done < o.total; ) {
        const at = (o.from + done) % o.source.length;
        const piece = o.source.subarray(at, Math.min(o.source.length, at + o.total - done));
        done += piece.length;
        if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })();
  });
}

interface Upload {
  server: RunningFilemgr;
  agent: Agent;
  source: Buffer;
  total: number;
}

async function timedStatus(want: number, what: string, send: () => Promise<{ status: number; location: string }>): Promise<{ ms: number; location: string }> {
  const start = performance.now();
  const res = await send();
  if (res.status !== want) throw new Error(`${what} answered ${res.status}, expected ${want}`);
  return { ms: performance.now() - start, location: res.location };
}

/** A raw upload: one POST of the whole file. */
async function raw(u: Upload, path: string, o: { want: number; headers: Record<string, string> }): Promise<number> {
  const send = () => sendBytes(`${u.server.base}${path}`, { method: 'POST', headers: { ...o.headers, 'content-type': 'application/octet-stream' }, source: u.source, from: 0, total: u.total, agent: u.agent });
  return (await timedStatus(o.want, `POST ${path}`, send)).ms;
}

/** A tus upload: the creation, then 10 MiB PATCHes to its Location. */
async function tus(u: Upload, path: string, headers: Record<string, string>): Promise<number> {
  const start = performance.now();
  const base = { ...headers, 'tus-resumable': '1.0.0' };
  const created = await timedStatus(201, `tus POST ${path}`, () => sendBytes(`${u.server.base}${path}`, { method: 'POST', headers: { ...base, 'upload-length': String(u.total) }, source: u.source, from: 0, total: 0, agent: u.agent }));
  for (let offset = 0; offset < u.total; offset += TUS_CHUNK) {
    const patch = { ...base, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) };
    await timedStatus(204, 'tus PATCH', () => sendBytes(`${u.server.base}${created.location}`, { method: 'PATCH', headers: patch, source: u.source, from: offset, total: Math.min(TUS_CHUNK, u.total - offset), agent: u.agent }));
  }
  return performance.now() - start;
}

type Way = 'ownerRaw' | 'linkRaw' | 'ownerTus' | 'linkTus';
const WAYS: readonly Way[] = ['ownerRaw', 'linkRaw', 'ownerTus', 'linkTus'];

async function makeLink(server: RunningFilemgr, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await expectAsk({ method: 'POST', url: `${server.base}/api/share${path}`, headers: { 'x-auth': server.token, 'content-type': 'application/json' }, body: JSON.stringify(body) }, 200);
  return (JSON.parse(res.body) as { hash: string }).hash;
}

async function emptyFolder(dir: string): Promise<void> {
  for (const name of await readdir(dir)) await rm(join(dir, name), { force: true });
}

async function uploadFigures(server: RunningFilemgr, root: string, log: (line: string) => void): Promise<Figure[]> {
  const mib = envNumber('BENCH_LINK_MB', 256);
  const rounds = envNumber('BENCH_LINK_ROUNDS', 5);
  const hash = await makeLink(server, '/inbox/', { kind: 'upload' });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const u: Upload = { server, agent, source: randomBytes(16 * MiB), total: mib * MiB };
  const owner = { 'x-auth': server.token };
  const ways: Record<Way, () => Promise<number>> = {
    ownerRaw: () => raw(u, '/api/resources/inbox/owner-raw.bin?override=true', { want: 200, headers: owner }),
    linkRaw: () => raw(u, `/api/public/upload/${hash}/link-raw.bin`, { want: 201, headers: {} }),
    ownerTus: () => tus(u, '/api/tus/inbox/owner-tus.bin?override=true', owner),
    linkTus: () => tus(u, `/api/public/tus/${hash}/link-tus.bin`, {}),
  };
  const times: Record<Way, number[]> = { ownerRaw: [], linkRaw: [], ownerTus: [], linkTus: [] };
  try {
    for (let r = 0; r < rounds; r++) {
      for (const way of [...WAYS.slice(r % WAYS.length), ...WAYS.slice(0, r % WAYS.length)]) {
        times[way].push(await ways[way]());
        await emptyFolder(join(root, 'inbox'));
      }
      log(`  round ${r + 1}/${rounds}: ${WAYS.map((w) => `${w} ${(times[w][r]! / 1000).toFixed(2)} s`).join(', ')}`);
    }
  } finally {
    agent.destroy();
  }
  const med = (w: Way) => median(times[w]);
  return [
    { label: `${mib} MiB raw POST through an upload link (time)`, value: med('linkRaw'), unit: 'ms', baseline: { label: "the owner's raw POST", value: med('ownerRaw') } },
    { label: `${mib} MiB tus through an upload link (time)`, value: med('linkTus'), unit: 'ms', baseline: { label: "the owner's tus upload", value: med('ownerTus') } },
  ];
}

async function downloadFigure(server: RunningFilemgr, log: (line: string) => void): Promise<Figure> {
  const count = envNumber('BENCH_DL_REQUESTS', 200);
  const limited = await makeLink(server, '/files/one.bin', { maxDownloads: 1_000_000 });
  const unlimited = await makeLink(server, '/files/one.bin', {});
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  // The owner's GET /api/raw of the same file, only logged: what serving the file costs without a link.
  const samples: Record<string, number[]> = { [limited]: [], [unlimited]: [], raw: [] };
  try {
    const get = (hash: string) =>
      expectAsk({ method: 'GET', url: hash === 'raw' ? `${server.base}/api/raw/files/one.bin` : `${server.base}/api/public/dl/${hash}`, agent, headers: { 'x-auth': server.token } }, 200);
    for (const hash of [limited, unlimited, 'raw']) for (let i = 0; i < DL_BLOCK; i++) await get(hash);
    const block = async (hash: string) => {
      for (let i = 0; i < DL_BLOCK; i++) samples[hash]!.push((await get(hash)).ms);
    };
    for (let done = 0; done < count; done += DL_BLOCK) {
      await block(limited);
      await block(unlimited);
      await block('raw');
    }
  } finally {
    agent.destroy();
  }
  const [l, u] = [median(samples[limited]!), median(samples[unlimited]!)];
  log(`  GET /api/public/dl of 1 MiB, median of ${samples[limited]!.length} each: limited link ${l.toFixed(2)} ms, unlimited ${u.toFixed(2)} ms; the owner's GET /api/raw ${median(samples.raw!).toFixed(2)} ms`);
  return { label: '1 MiB via a link with a download limit', value: l, unit: 'ms', baseline: { label: 'the same link without a limit', value: u } };
}

async function run(log: (line: string) => void): Promise<Figure[]> {
  const root = await mkdtemp(join(tmpdir(), 'filemgr-bench-links-'));
  try {
    await mkdir(join(root, 'inbox'));
    await mkdir(join(root, 'files'));
    await writeFile(join(root, 'files', 'one.bin'), randomBytes(MiB));
    const server = await startFilemgr(root);
    try {
      const figures = await uploadFigures(server, root, log);
      figures.push(await downloadFigure(server, log));
      return figures;
    } finally {
      await server.stop();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** B2: uploads through an upload link against the owner's; the cost of a download limit. */
export const linksBenchmark: Benchmark = {
  name: 'links',
  title: "B2 links (built executable): uploads through an upload link against the owner's; a download limit's cost",
  run,
};
