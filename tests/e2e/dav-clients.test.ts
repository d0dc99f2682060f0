import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerHandle } from './support/harness';

// Real WebDAV clients against the built executable (beyond.md §1 "Judged by": rclone, cadaver).

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program with exactly `env` (nothing inherited) and `stdin`, collecting its output. */
function run(program: string, args: string[], opts: { env: Record<string, string>; stdin?: string; cwd?: string }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env: opts.env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

/** Every file below `dir`, as relative paths. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

/** Names that trip up URL handling: unicode (NFC), spaces, '#', '%', '+', '&', quotes. */
const AWKWARD = ['plain', 'with space', 'hash#tag', '100% done', 'Grüße', '日本語', 'emoji 🎉', 'a+b&c', "it's", 'percent%20literal'];

/** A tree of 300 files in nested folders whose names use every awkward pattern. */
async function writeUploadTree(dir: string): Promise<number> {
  let count = 0;
  for (const [i, folder] of AWKWARD.entries()) {
    for (const [j, sub] of AWKWARD.slice(0, 3).entries()) {
      for (let k = 0; k < 10; k++) {
        const name = `${AWKWARD[(i + j + k) % AWKWARD.length]} ${k}.txt`;
        const path = join(dir, folder, sub, name);
        await mkdir(join(dir, folder, sub), { recursive: true });
        await writeFile(path, `${folder}/${sub}/${name}\n`.repeat(1 + ((i * 7 + k) % 50)));
        count++;
      }
    }
  }
  return count;
}

describe('rclone against /dav/', () => {
  let server: ServerHandle;
  let work: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    server = await startServer();
    work = await mkdtemp(join(tmpdir(), 'filemgr-rclone-'));
    const home = join(work, 'home');
    await mkdir(home);
    const obscured = await run('/usr/bin/rclone', ['obscure', server.password], { env: { HOME: home } });
    // The remote "fm" is configured through the environment only; the config file does not exist.
    env = {
      HOME: home,
      RCLONE_CONFIG: join(work, 'no-such-rclone.conf'),
      RCLONE_CONFIG_FM_TYPE: 'webdav',
      RCLONE_CONFIG_FM_URL: `${server.url}/dav/`,
      RCLONE_CONFIG_FM_VENDOR: 'other',
      RCLONE_CONFIG_FM_USER: server.username,
      RCLONE_CONFIG_FM_PASS: obscured.stdout.trim(),
    };
  });

  afterAll(async () => {
    await server.stop();
    await server.sandbox.remove();
    await rm(work, { recursive: true, force: true });
  });

  it('copies a tree of 300 awkwardly named files up, checks it by download and purges it', async () => {
    const source = join(work, 'source');
    const count = await writeUploadTree(source);
    expect(count).toBe(300);

    const copy = await run('/usr/bin/rclone', ['copy', source, 'fm:up load', '--transfers', '4', '--retries', '1', '--low-level-retries', '1'], { env });
    expect(copy.code, copy.stderr).toBe(0);
    const onDisk = join(server.sandbox.root, 'up load');
    expect(await filesBelow(onDisk)).toEqual(await filesBelow(source));
    for (const rel of (await filesBelow(source)).slice(0, 300)) {
      expect(await readFile(join(onDisk, rel), 'utf8'), rel).toBe(await readFile(join(source, rel), 'utf8'));
    }

    const check = await run('/usr/bin/rclone', ['check', '--download', source, 'fm:up load'], { env });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toMatch(/0 differences found/);

    const purge = await run('/usr/bin/rclone', ['purge', 'fm:up load'], { env });
    expect(purge.code, purge.stderr).toBe(0);
    expect(existsSync(onDisk)).toBe(false);
    expect(existsSync(server.sandbox.root)).toBe(true);
  });

  it('keeps modification times (X-OC-Mtime) and lists them back', async () => {
    const source = join(work, 'dated');
    await mkdir(source);
    await writeFile(join(source, 'old.txt'), 'old');
    const when = new Date('2001-02-03T04:05:06Z');
    await utimes(join(source, 'old.txt'), when, when);
    // rclone sends X-OC-Mtime only to the ownCloud/Nextcloud vendors.
    const ocEnv = { ...env, RCLONE_CONFIG_FM_VENDOR: 'owncloud' };
    const copy = await run('/usr/bin/rclone', ['copy', source, 'fm:dated'], { env: ocEnv });
    expect(copy.code, copy.stderr).toBe(0);
    expect((await stat(join(server.sandbox.root, 'dated', 'old.txt'))).mtime.toISOString()).toBe(when.toISOString());
    const listed = await run('/usr/bin/rclone', ['lsl', 'fm:dated'], { env: ocEnv });
    expect(listed.stdout).toMatch(/2001-02-03 04:05:06/);
  });
});

describe('cadaver against /dav/', () => {
  let server: ServerHandle;
  let work: string;

  beforeAll(async () => {
    server = await startServer({ tree: { 'existing.txt': 'already here\n' } });
    work = await mkdtemp(join(tmpdir(), 'filemgr-cadaver-'));
  });

  afterAll(async () => {
    await server.stop();
    await server.sandbox.remove();
    await rm(work, { recursive: true, force: true });
  });

  it('makes a folder, puts, moves and gets a file, scripted through stdin with ~/.netrc', async () => {
    const home = join(work, 'home');
    await mkdir(home);
    const host = new URL(server.url).hostname;
    await writeFile(join(home, '.netrc'), `machine ${host}\nlogin ${server.username}\npassword ${server.password}\n`);
    await chmod(join(home, '.netrc'), 0o600);
    const local = join(work, 'local file.txt');
    await writeFile(local, 'from cadaver\n'.repeat(100));
    const script = [
      'mkcol reports',
      `put "${local}" "reports/first draft.txt"`,
      'move "reports/first draft.txt" reports/final.txt',
      `get reports/final.txt "${join(work, 'fetched.txt')}"`,
      `get existing.txt "${join(work, 'existing.txt')}"`,
      'quit',
    ].join('\n');
    const session = await run('/usr/bin/cadaver', [`${server.url}/dav/`], { env: { HOME: home, TERM: 'dumb' }, stdin: `${script}\n`, cwd: work });
    expect(session.code, `${session.stdout}\n${session.stderr}`).toBe(0);
    expect(session.stdout).not.toMatch(/failed/i);

    const root = server.sandbox.root;
    expect(await readdir(join(root, 'reports'))).toEqual(['final.txt']);
    expect(await readFile(join(root, 'reports', 'final.txt'), 'utf8')).toBe('from cadaver\n'.repeat(100));
    expect(await readFile(join(work, 'fetched.txt'), 'utf8')).toBe('from cadaver\n'.repeat(100));
    expect(await readFile(join(work, 'existing.txt'), 'utf8')).toBe('already here\n');
  });
});
