import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTree } from '../../tests/support/tree';
import { hiddenFilesOf, TEMP_PREFIX } from './hidden';
import { createGate, type GateOptions, scopeRoot } from './scope';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

/** base/ holds `srv` (the scope), `srvother`, `outside`, `private`. */
async function world(): Promise<string> {
  const base = await makeTree({
    'srv/file.txt': 'in scope',
    'srv/real/f.txt': 'real',
    'srv/inlink': { symlink: 'real/f.txt' },
    'srv/escape': { symlink: '../outside' },
    'srv/sibling': { symlink: '../srvother' },
    'srv/dangling-out': { symlink: '../outside/new.txt' },
    'srv/dangling-in': { symlink: 'real/missing.txt' },
    'srv/loop-a': { symlink: 'loop-b' },
    'srv/loop-b': { symlink: 'loop-a' },
    'srvother/secret.txt': 'sibling secret',
    'outside/secret.txt': 'secret',
    'outside/rel-dangling': { symlink: '../victim-dir/x.txt' },
  });
  roots.push(base);
  return base;
}

const gateOf = (base: string, extra: Partial<GateOptions> = {}) =>
  createGate({ root: join(base, 'srv'), followExternalSymlinks: false, ...extra });

describe('scopeRoot', () => {
  it.each([
    ['.', '/srv'],
    ['', '/srv'],
    ['/', '/srv'],
    ['../x', '/srv/x'],
    ['/users/alice', '/srv/users/alice'],
  ])('joins scope %j onto the server root', (scope, out) => {
    expect(scopeRoot('/srv', scope)).toBe(out);
  });
});

describe('PathGate.resolve', () => {
  it('resolves an in-scope file to its real path', async () => {
    const base = await world();
    const gate = await gateOf(base);
    const t = await gate.resolve('/file.txt');
    const real = join(base, 'srv/file.txt');
    expect(t).toEqual({ path: '/file.txt', real, lexical: real, resolved: real });
  });

  it.each([
    ['an escaping directory symlink', '/escape'],
    ['a file below an escaping directory symlink', '/escape/secret.txt'],
    ['a symlink to a sibling whose name shares the prefix', '/sibling/secret.txt'],
    ['a dangling symlink pointing outside', '/dangling-out'],
    ['a relative dangling link inside an escaping directory', '/escape/rel-dangling'],
    ['a symlink loop', '/loop-a'],
  ])('refuses %s with 403', async (_label, path) => {
    const base = await world();
    const gate = await gateOf(base);
    await expect(gate.resolve(path, 'write')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(gate.resolve(path)).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('resolves an in-scope symlink to its target but operates on the link', async () => {
    const base = await world();
    const gate = await gateOf(base);
    const t = await gate.resolve('/inlink');
    expect(t.real).toBe(join(base, 'srv/inlink'));
    expect(t.resolved).toBe(join(base, 'srv/real/f.txt'));
  });

  it.each([
    ['an in-scope symlink', '/inlink'],
    ['a dangling symlink pointing inside', '/dangling-in'],
    ['a missing file', '/new/deeper/file.txt'],
    ['the root', '/'],
  ])('accepts %s', async (_label, path) => {
    const base = await world();
    const gate = await gateOf(base);
    await expect(gate.resolve(path, 'write')).resolves.toMatchObject({ path });
  });

  it.each([
    ['/../../outside/secret.txt', '/outside/secret.txt'],
    ['/a/../../file.txt', '/file.txt'],
    ['//file.txt', '/file.txt'],
  ])('keeps %j lexically inside as %j', async (raw, path) => {
    const base = await world();
    const gate = await gateOf(base);
    const t = await gate.resolve(raw, 'write');
    expect(t.path).toBe(path);
    expect(t.real.startsWith(join(base, 'srv'))).toBe(true);
  });

  it('keeps a backslash as a filename character', async () => {
    const base = await world();
    const gate = await gateOf(base);
    const t = await gate.resolve('/a\\..\\file.txt');
    expect(t.real).toBe(join(base, 'srv', 'a\\..\\file.txt'));
  });

  it('answers 400 for a NUL byte and for an overlong name', async () => {
    const base = await world();
    const gate = await gateOf(base);
    await expect(gate.resolve('/a\0b')).rejects.toMatchObject({ code: 'bad_request' });
    await expect(gate.resolve(`/${'x'.repeat(300)}`)).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('follows every symlink with followExternalSymlinks', async () => {
    const base = await world();
    const gate = await gateOf(base, { followExternalSymlinks: true });
    const t = await gate.resolve('/escape/secret.txt');
    expect(await readFile(t.real, 'utf8')).toBe('secret');
    expect(await gate.confines(join(base, 'srv/escape'))).toBe(true);
  });

  it('allows everything when the scope is the filesystem root', async () => {
    const base = await world();
    const gate = await createGate({ root: '/', followExternalSymlinks: false });
    const t = await gate.resolve(join(base, 'srv/escape/secret.txt'), 'write');
    expect(t.path).toBe(join(base, 'srv/escape/secret.txt'));
  });

  it('refuses a path whose linked ancestor leaves the scope', async () => {
    const base = await makeTree({ 'shared/ok.txt': 'ok', 'shared/link': { symlink: '../private' }, 'private/secret.txt': 's' });
    roots.push(base);
    const gate = await createGate({ root: join(base, 'shared'), followExternalSymlinks: false });
    await expect(gate.resolve('/link/secret.txt')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(gate.resolve('/ok.txt')).resolves.toMatchObject({ path: '/ok.txt' });
  });

  it('refuses a path whose parent lies outside even when the target comes back in', async () => {
    const base = await world();
    await symlink(join(base, 'srv/file.txt'), join(base, 'outside/back'));
    const gate = await gateOf(base);
    await expect(gate.resolve('/escape/back', 'write')).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('applies the rule check to the clean path', async () => {
    const base = await world();
    const gate = await gateOf(base, { allows: (p) => p !== '/file.txt' });
    await expect(gate.resolve('/real/../file.txt')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(gate.resolve('/real/f.txt')).resolves.toMatchObject({ path: '/real/f.txt' });
  });

  it('hides temporary files: 404 to read, 403 to write', async () => {
    const base = await world();
    const gate = await gateOf(base);
    const name = `/${TEMP_PREFIX}abc`;
    await writeFile(join(base, 'srv', name), 'partial');
    await expect(gate.resolve(name)).rejects.toMatchObject({ code: 'not_found' });
    await expect(gate.resolve(`${name}/x`, 'write')).rejects.toMatchObject({ code: 'forbidden' });
    expect(gate.allows(name)).toBe(false);
  });

  it('hides the database, its lock, temporaries and first admin password, and the cache directory', async () => {
    const base = await world();
    await mkdir(join(base, 'srv/cache'));
    const hidden = await hiddenFilesOf({ databasePath: join(base, 'srv/filemgr.json'), cacheDir: join(base, 'srv/cache') });
    const gate = await gateOf(base, { hidden });
    await symlink('filemgr.json', join(base, 'srv/db-link'));
    for (const p of ['/filemgr.json', '/filemgr.json.lock', '/filemgr.json.admin-password', '/.filemgr.json.tmp-1234', '/cache', '/cache/a/b', '/db-link']) {
      await expect(gate.resolve(p), p).rejects.toMatchObject({ code: 'not_found' });
      await expect(gate.resolve(p, 'write'), p).rejects.toMatchObject({ code: 'forbidden' });
    }
    await expect(gate.resolve('/filemgr.json.bak')).resolves.toMatchObject({ path: '/filemgr.json.bak' });
  });

  it('hides the database temporaries beside it only, by their full real path', async () => {
    const hidden = await hiddenFilesOf({ databasePath: '/no/such/dir/filemgr.json', cacheDir: '' });
    expect(hidden.hides('/no/such/dir/.filemgr.json.tmp-1234')).toBe(true);
    expect(hidden.hides('/no/such/dir/.filemgr.json.tmp-')).toBe(true);
    expect(hidden.hides('/no/such/dir/.filemgr.json.tmp-1234/inside')).toBe(false);
    expect(hidden.hides('/no/such/dir/sub/.filemgr.json.tmp-1234')).toBe(false);
    expect(hidden.hides('/no/such/.filemgr.json.tmp-1234')).toBe(false);
    expect(hidden.hides('/no/such/dir/.filemgr.json.tm')).toBe(false);
  });

  it('reports rules for the descendant walk only when some exist', async () => {
    const base = await world();
    expect((await gateOf(base)).hasRules).toBe(false);
    const ruled = await gateOf(base, { descendantAllows: (p) => !p.startsWith('/real') });
    expect(ruled.hasRules).toBe(true);
    expect(ruled.descendantAllows('/real/f.txt')).toBe(false);
  });

  it('resolves a root that does not exist yet to its would-be path', async () => {
    const base = await world();
    const gate = await createGate({ root: join(base, 'srv/not-yet'), followExternalSymlinks: false });
    expect(gate.realRoot).toBe(join(base, 'srv/not-yet'));
  });
});
