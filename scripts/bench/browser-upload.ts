// M8: uploads from the browser (Chromium, the web app of dist/filemgr) against the same uploads
// made by a Node client straight to the API of the same server, in the same run: tus in 10 MiB
// chunks, and the raw POST. The browser picks a file on disk through the Upload dialog; its time
// runs from the pick until the file is complete on disk (the server renames it into place only
// then). The API's time runs from its first request until its last answer. Goal: the browser adds
// at most 15%. A third way sends the same requests with bare XMLHttpRequest from the same page, so
// the app's share of a difference can be told from Chromium's own. Sizes: BENCH_BROWSER_UPLOAD_BYTES (default 1G), BENCH_RUNS (default 3, medians kept).
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, rm, stat } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { withBrowser } from './browser';
import { median, sleep, type Benchmark, type Figure } from './measure';
import { rawPost, sizeFromEnv, tusUpload, type BenchServer } from './upload';

const CHUNK = 10 * 1024 * 1024;
const SOURCE_BYTES = 16 * 1024 * 1024;

type Way = 'apiRaw' | 'apiTus' | 'browserRaw' | 'browserTus' | 'bareRaw' | 'bareTus';

/** A file of `total` bytes made of one random 16 MiB block repeated, as the API client sends. */
async function makeSource(path: string, source: Buffer, total: number): Promise<void> {
  const fh = await open(path, 'w');
  try {
    for (let done = 0; done < total; ) {
      const n = Math.min(source.length, total - done);
      done += (await fh.write(source, 0, n, done)).bytesWritten;
    }
  } finally {
    await fh.close();
  }
}

/** Waits (polling every 2 ms) until `path` exists with `size` bytes. */
async function untilComplete(path: string, size: number): Promise<void> {
  for (;;) {
    const s = await stat(path).catch(() => undefined);
    if (s?.size === size) return;
    await sleep(2);
  }
}

/** The page configuration carries the chunk size: 0 makes the web app use the raw POST. */
async function setChunkSize(origin: string, token: string, chunkSize: number): Promise<void> {
  const headers = { 'X-Auth': token, 'Content-Type': 'application/json' };
  const settings = (await (await fetch(`${origin}/api/settings`, { headers })).json()) as Record<string, unknown>;
  const res = await fetch(`${origin}/api/settings`, { method: 'PUT', headers, body: JSON.stringify({ ...settings, tus: { chunkSize, retryCount: 5 } }) });
  if (res.status !== 200) throw new Error(`PUT /api/settings answered ${res.status}`);
}

/** One upload through the Upload dialog's File picker; ms from the pick to the file complete on disk. */
async function browserUpload(page: Page, at: { origin: string; file: string; target: string; size: number }): Promise<number> {
  await page.goto(`${at.origin}/files/`);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('dialog', { name: 'Upload', exact: true }).getByRole('button', { name: 'File', exact: true }).click(),
  ]);
  const start = performance.now();
  await chooser.setFiles(at.file);
  await untilComplete(at.target, at.size);
  const ms = performance.now() - start;
  await page.getByRole('region', { name: 'Uploads', exact: true }).waitFor({ state: 'hidden' });
  await rm(at.target, { force: true });
  return ms;
}

/**
 * The same requests sent by a few lines of XMLHttpRequest in the same page, without the app (what
 * tus-js-client and the raw POST do underneath): the browser's own cost, so that the app's share
 * of the difference to the API can be told apart from Chromium's.
 */
async function bareUpload(page: Page, at: { origin: string; file: string; tus: boolean }): Promise<number> {
  await page.goto(`${at.origin}/files/`);
  await page.getByRole('button', { name: 'Upload', exact: true }).waitFor();
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-file';
    document.body.append(input);
  });
  await page.setInputFiles('#bench-file', at.file);
  return page.evaluate(async ({ tus, chunk }) => {
    const file = (document.getElementById('bench-file') as HTMLInputElement).files?.[0];
    if (!file) throw new Error('no file picked');
    const token = localStorage.getItem('jwt') ?? '';
    const start = performance.now();
    // No named helpers in here: the bundler would wrap them in a function the page lacks. Step -1
    // creates the upload (tus) or sends the whole file (raw); then one PATCH per chunk.
    let location = '';
    for (let offset = -1; offset < (tus ? file.size : 0); offset += offset < 0 ? 1 : chunk) {
      const xhr = new XMLHttpRequest();
      const creating = offset < 0;
      let body: Blob | null = file.slice(offset, offset + chunk);
      if (creating) {
        xhr.open('POST', tus ? '/api/tus/bare.bin?override=true' : '/api/resources/bare.bin?override=true');
        if (tus) xhr.setRequestHeader('Upload-Length', String(file.size));
        body = tus ? null : file;
      } else {
        xhr.open('PATCH', location);
        xhr.setRequestHeader('Upload-Offset', String(offset));
        xhr.setRequestHeader('Content-Type', 'application/offset+octet-stream');
      }
      xhr.setRequestHeader('X-Auth', token);
      if (tus) xhr.setRequestHeader('Tus-Resumable', '1.0.0');
      xhr.upload.onprogress = () => undefined;
      await new Promise<void>((resolve, reject) => {
        xhr.onload = () => (xhr.status < 300 ? resolve() : reject(new Error(`status ${xhr.status}`)));
        xhr.onerror = () => reject(new Error('connection failed'));
        xhr.send(body);
      });
      if (creating) location = xhr.getResponseHeader('Location') ?? '';
    }
    return performance.now() - start;
  }, { tus: at.tus, chunk: CHUNK });
}

const mbps = (bytes: number, ms: number): string => `${(bytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s`;

interface Run {
  page: Page;
  origin: string;
  server: BenchServer;
  file: string;
  data: { source: Buffer; total: number };
}

/** One round of the four ways, in a rotating order (a shared machine's disk drifts over time). */
async function round(run: Run, turn: number): Promise<Record<Way, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const upload = { origin: run.origin, file: run.file, target: join(run.server.root, 'bench-upload.bin'), size: run.data.total };
  const ways: Record<Way, () => Promise<number>> = {
    apiRaw: () => rawPost(run.server, agent, run.data),
    apiTus: () => tusUpload(run.server, agent, run.data),
    browserRaw: async () => {
      await setChunkSize(run.origin, run.server.token, 0);
      return browserUpload(run.page, upload);
    },
    browserTus: async () => {
      await setChunkSize(run.origin, run.server.token, CHUNK);
      return browserUpload(run.page, upload);
    },
    bareRaw: () => bareUpload(run.page, { origin: run.origin, file: run.file, tus: false }),
    bareTus: () => bareUpload(run.page, { origin: run.origin, file: run.file, tus: true }),
  };
  const order: Way[] = ['apiRaw', 'browserRaw', 'bareRaw', 'apiTus', 'browserTus', 'bareTus'];
  const times = { apiRaw: 0, apiTus: 0, browserRaw: 0, browserTus: 0, bareRaw: 0, bareTus: 0 };
  try {
    for (let i = 0; i < order.length; i++) {
      const way = order[(i + turn) % order.length]!;
      times[way] = await ways[way]();
      await Promise.all(['raw.bin', 'tus.bin', 'bare.bin'].map((n) => rm(join(run.server.root, n), { force: true })));
    }
  } finally {
    agent.destroy();
  }
  return times;
}

async function measure(dir: string, log: (line: string) => void): Promise<Record<Way, number>[]> {
  const total = sizeFromEnv(process.env.BENCH_BROWSER_UPLOAD_BYTES, 1024 ** 3);
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 3);
  const source = randomBytes(SOURCE_BYTES);
  const file = join(dir, 'bench-upload.bin');
  await makeSource(file, source, total);
  const root = join(dir, 'root');
  await mkdir(root);
  const argsFor = (port: number) => ['--port', String(port), '--root', root, '--database', join(dir, 'filemgr.json'), '--noauth'];
  return withBrowser(argsFor, async (page, origin) => {
    await page.goto(`${origin}/files/`);
    await page.getByRole('button', { name: 'Upload', exact: true }).waitFor();
    const token = await page.evaluate(() => localStorage.getItem('jwt') ?? '');
    const server: BenchServer = { port: Number(new URL(origin).port), root, token, stop: () => Promise.resolve() };
    const rounds: Record<Way, number>[] = [];
    for (let turn = 0; turn < runs; turn++) {
      const r = await round({ page, origin, server, file, data: { source, total } }, turn);
      rounds.push(r);
      log(`  run ${turn + 1}/${runs}: tus: app ${mbps(total, r.browserTus)}, bare browser ${mbps(total, r.bareTus)}, API ${mbps(total, r.apiTus)}; raw POST: app ${mbps(total, r.browserRaw)}, bare browser ${mbps(total, r.bareRaw)}, API ${mbps(total, r.apiRaw)}`);
    }
    return rounds;
  });
}

/** Measures both ways of uploading from the browser against the API; prints times and ratios. */
async function run(log: (line: string) => void): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-bench-browser-upload-'));
  try {
    const rounds = await measure(dir, log);
    const total = sizeFromEnv(process.env.BENCH_BROWSER_UPLOAD_BYTES, 1024 ** 3);
    const med = (way: Way) => median(rounds.map((r) => r[way]));
    // The median of each round's ratio resists the drift of a loaded machine between rounds.
    const ratio = (b: Way, a: Way) => median(rounds.map((r) => r[b] / r[a])).toFixed(2);
    const mib = (total / 1024 ** 2).toFixed(0);
    log(`  ${mib} MiB, median of ${rounds.length} rounds (goal: the browser takes at most 1.15 x the API's time):`);
    log(`    tus, 10 MiB chunks   app ${mbps(total, med('browserTus'))}, API ${mbps(total, med('apiTus'))}: ${ratio('browserTus', 'apiTus')} x the API's time`);
    log(`    raw POST             app ${mbps(total, med('browserRaw'))}, API ${mbps(total, med('apiRaw'))}: ${ratio('browserRaw', 'apiRaw')} x the API's time`);
    log(`    of which Chromium itself (bare XHR, same requests): tus ${ratio('bareTus', 'apiTus')} x, raw ${ratio('bareRaw', 'apiRaw')} x; the app over bare XHR: tus ${ratio('browserTus', 'bareTus')} x, raw ${ratio('browserRaw', 'bareRaw')} x`);
    return [
      { label: `browser tus upload of ${mib} MiB (time)`, value: med('browserTus'), unit: 'ms', baseline: { label: 'the API tus upload, same server', value: med('apiTus') } },
      { label: `browser raw POST of ${mib} MiB (time)`, value: med('browserRaw'), unit: 'ms', baseline: { label: 'the API raw POST, same server', value: med('apiRaw') } },
      { label: `bare XHR tus of ${mib} MiB, no app (time)`, value: med('bareTus'), unit: 'ms', baseline: { label: 'the API tus upload, same server', value: med('apiTus') } },
      { label: `bare XHR raw POST of ${mib} MiB, no app (time)`, value: med('bareRaw'), unit: 'ms', baseline: { label: 'the API raw POST, same server', value: med('apiRaw') } },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The module as scripts/bench/bench.ts lists benchmarks. */
export const browserUploadBenchmark: Benchmark = { name: 'browser-upload', title: 'M8: uploads from the browser (tus and raw POST) against the API', run };
