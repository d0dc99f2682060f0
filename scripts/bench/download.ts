// M3 download benchmark: one large file through GET /api/raw against nginx serving the same file
// on loopback (Debian's nginx, installed with apt-get when missing), same client for both.
// BENCH_DOWNLOAD_MB sets the file size (default 2048), BENCH_RUNS the runs per server (default 3).
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envNumber, fetchToNull, peakRss, startFilemgr } from './filemgr-process';
import { freePort, median, startUntil200, stop, type Benchmark, type Figure } from './measure';

const NGINX = '/usr/sbin/nginx';

/** Installs Debian's nginx when it is missing (the benchmark's reference server). */
export function ensureNginx(log: (line: string) => void): void {
  if (existsSync(NGINX)) return;
  log('  installing nginx with apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update'], { stdio: 'ignore', env });
  const install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], { stdio: 'ignore', env });
  if (install.status !== 0 || !existsSync(NGINX)) throw new Error('could not install nginx with apt-get');
}

/** Writes `mb` MiB of incompressible bytes (one random MiB repeated). */
async function bigFile(path: string, mb: number): Promise<void> {
  const block = randomBytes(1024 * 1024);
  const fh = await open(path, 'w');
  try {
    for (let i = 0; i < mb; i++) await fh.write(block);
  } finally {
    await fh.close();
  }
}

/** nginx in the foreground on a free loopback port, serving `root`, every path under `dir`. */
export async function startNginx(dir: string, root: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  await writeFile(
    conf,
    `daemon off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\n` +
      `events { worker_connections 64; }\n` +
      `http {\n  access_log off;\n  sendfile on;\n  tcp_nopush on;\n` +
      `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;\n` +
      `  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;\n` +
      `  server { listen 127.0.0.1:${port}; root ${root}; }\n}\n`,
  );
  const base = `http://127.0.0.1:${port}`;
  const started = await startUntil200(NGINX, ['-p', dir, '-c', conf], { url: `${base}/`, env: {}, cwd: dir });
  return { child: started.child, base };
}

/** Runs the download benchmark, prints its progress and returns its figures. */
export async function run(log: (line: string) => void = console.log): Promise<Figure[]> {
  const mb = envNumber('BENCH_DOWNLOAD_MB', 2048);
  const runs = envNumber('BENCH_RUNS', 3);
  ensureNginx(log);
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-bench-download-'));
  const root = join(dir, 'root');
  await mkdir(root);
  // nginx's workers run as nobody: the served tree must be world-readable.
  await chmod(dir, 0o755);
  await writeFile(join(root, 'index.html'), 'ok');
  log(`  writing a ${mb} MiB file`);
  await bigFile(join(root, 'big.bin'), mb);
  const nginx = await startNginx(dir, root);
  const filemgr = await startFilemgr(root);
  try {
    const headers = { 'x-auth': filemgr.token };
    const idle = await peakRss(filemgr.pid);
    // One untimed read each so both serve from the page cache.
    await fetchToNull(`${nginx.base}/big.bin`);
    await fetchToNull(`${filemgr.base}/api/raw/big.bin`, headers);
    const timed = async (url: string, h: Record<string, string>, who: string): Promise<number> => {
      const res = await fetchToNull(url, h);
      if (res.status !== 200 || res.bytes !== mb * 1024 * 1024) throw new Error(`${who} answered ${res.status} with ${res.bytes} bytes`);
      log(`  ${who}: ${res.ms.toFixed(0)} ms, ${((res.bytes / 2 ** 20) / (res.ms / 1000)).toFixed(0)} MiB/s`);
      return res.ms;
    };
    // Interleaved, so that a change in the machine's load during the run hits both sides.
    const nginxRuns: number[] = [];
    const ourRuns: number[] = [];
    for (let i = 0; i < runs; i++) {
      nginxRuns.push(await timed(`${nginx.base}/big.bin`, {}, 'nginx'));
      ourRuns.push(await timed(`${filemgr.base}/api/raw/big.bin`, headers, 'filemgr'));
    }
    const nginxMs = median(nginxRuns);
    const ours = median(ourRuns);
    const peak = await peakRss(filemgr.pid);
    log(`  filemgr throughput = ${((100 * nginxMs) / ours).toFixed(0)}% of nginx's`);
    return [
      { label: `download ${mb} MiB via /api/raw (median)`, value: ours, unit: 'ms', baseline: { label: 'nginx sendfile, same file', value: nginxMs } },
      { label: 'server peak RSS after the downloads', value: peak, unit: 'B', baseline: { label: 'its peak RSS before them', value: idle } },
    ];
  } finally {
    await filemgr.stop();
    await stop(nginx.child);
    await rm(dir, { recursive: true, force: true });
  }
}

/** M3: large-file download throughput against nginx. */
export const downloadBenchmark: Benchmark = {
  name: 'download',
  title: 'M3: downloading one large file (GET /api/raw) against nginx',
  run,
};
