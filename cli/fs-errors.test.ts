import type * as FsPromises from 'node:fs/promises';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fsErrorSentence, fsReason } from './fs-errors';
import { runCli } from '../tests/support/cli-io';

/** Paths whose stat, or rename onto which, fails with EACCES: root may do anything, so the test plays the kernel. */
const denied = { stat: new Set<string>(), access: new Set<string>(), rename: new Set<string>() };

function eacces(syscall: string, path: string, dest?: string): NodeJS.ErrnoException {
  const message = `EACCES: permission denied, ${syscall} '${path}'${dest === undefined ? '' : ` -> '${dest}'`}`;
  return Object.assign(new Error(message), { code: 'EACCES', errno: -13, syscall, path, ...(dest === undefined ? {} : { dest }) });
}

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  return {
    ...real,
    stat: async (...args: Parameters<typeof real.stat>) => {
      if (denied.stat.has(String(args[0]))) throw eacces('stat', String(args[0]));
      return real.stat(...args);
    },
    access: async (...args: Parameters<typeof real.access>) => {
      if (denied.access.has(String(args[0]))) throw eacces('access', String(args[0]));
      return real.access(...args);
    },
    rename: async (from: string, to: string) => {
      if (denied.rename.has(to)) throw eacces('rename', from, to);
      return real.rename(from, to);
    },
  };
});

afterEach(() => {
  denied.stat.clear();
  denied.access.clear();
  denied.rename.clear();
});

const who = `${userInfo().username}, uid ${process.getuid?.() ?? ''}`;
const permission = `permission denied (EACCES); filemgr runs as ${who}, which may not access it or a directory above it: run filemgr as the user that owns it, or change its owner or mode`;

describe('file-system errors as sentences', () => {
  it.each([
    [{ code: 'ENOENT' }, 'it does not exist (ENOENT)'],
    [{ code: 'EISDIR' }, 'it is a directory (EISDIR)'],
    [Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }), 'i/o error (EIO)'],
    [new Error('plain'), 'plain'],
  ])('explains %j', (err, reason) => {
    expect(fsReason(err)).toBe(reason);
  });

  it('says who filemgr runs as when permission is denied', () => {
    expect(fsReason(eacces('open', '/x'))).toBe(permission);
    expect(fsErrorSentence(eacces('open', '/x'))).toBe(`cannot open /x: ${permission}`);
    expect(fsErrorSentence(new Error('not a file-system error'))).toBeUndefined();
  });

  it('a database the user may not read', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'filemgr-fs-errors-'));
    expect((await runCli(['config', 'init'], { cwd })).code).toBe(0);
    denied.stat.add(join(cwd, 'filemgr.json'));
    const r = await runCli(['users', 'ls'], { cwd });
    expect(r.stderr).toBe(`filemgr: cannot read the database ${join(cwd, 'filemgr.json')}: ${permission}\n`);
    expect(r.code).toBe(1);
  });

  it('a database the user may see but not read', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'filemgr-fs-errors-'));
    expect((await runCli(['config', 'init'], { cwd })).code).toBe(0);
    denied.access.add(join(cwd, 'filemgr.json'));
    const r = await runCli(['users', 'ls'], { cwd });
    expect(r.stderr).toBe(`filemgr: cannot read the database ${join(cwd, 'filemgr.json')}: ${permission}\n`);
    expect(r.code).toBe(1);
  });

  it('a database the user may read but not replace', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'filemgr-fs-errors-'));
    expect((await runCli(['config', 'init'], { cwd })).code).toBe(0);
    denied.rename.add(join(cwd, 'filemgr.json'));
    const r = await runCli(['config', 'set', '--signup'], { cwd });
    expect(r.stderr).toBe(`filemgr: cannot replace ${join(cwd, 'filemgr.json')}: ${permission}\n`);
    expect(r.code).toBe(1);
  });

  it('a file where a directory is needed', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'filemgr-fs-errors-'));
    expect((await runCli(['config', 'init'], { cwd })).code).toBe(0);
    await mkdir(join(cwd, 'out.json'));
    const r = await runCli(['config', 'export', 'out.json'], { cwd });
    expect(r.stderr).toBe(`filemgr: cannot write ${join(cwd, 'out.json')}: it is a directory (EISDIR)\n`);
    expect(r.code).toBe(1);
  });
});
