import { execFileSync } from 'node:child_process';
import { lstat, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appsForEachTest } from '../../../tests/support/per-test';
import { call, userWith } from '../../../tests/support/resource-calls';
import type { TestApp, TestAppOptions } from '../../../tests/support/test-app';

const start = appsForEachTest();
const exists = (p: string) => lstat(p).then(() => true, () => false);

/** Entries for python: [name, content] a file, [name, null] a folder, [name, {link}] a symlink, [name, {hard}] a hard link. */
type Spec = [string, string | null | { link: string } | { hard: string }][];

const PY_TAR = `
import io, json, sys, tarfile
spec = json.loads(sys.argv[2])
with tarfile.open(sys.argv[1], 'w:gz', format=tarfile.PAX_FORMAT) as tar:
    for name, value in spec:
        info = tarfile.TarInfo(name)
        if value is None:
            info.type = tarfile.DIRTYPE
            tar.addfile(info)
        elif isinstance(value, dict) and 'link' in value:
            info.type = tarfile.SYMTYPE; info.linkname = value['link']; tar.addfile(info)
        elif isinstance(value, dict):
            info.type = tarfile.LNKTYPE; info.linkname = value['hard']; tar.addfile(info)
        else:
            data = value.encode(); info.size = len(data); tar.addfile(info, io.BytesIO(data))
`;

const PY_ZIP = `
import json, sys, zipfile
spec = json.loads(sys.argv[2])
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    for name, value in spec:
        if isinstance(value, dict):
            info = zipfile.ZipInfo(name); info.external_attr = (0o120777 << 16); z.writestr(info, value['link'])
        else:
            z.writestr(name, value or '')
`;

function make(path: string, script: string, spec: Spec): void {
  execFileSync('/usr/bin/python3', ['-c', script, path, JSON.stringify(spec)], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function setup(spec: Spec, kind: 'tar.gz' | 'zip', opts: TestAppOptions = {}): Promise<TestApp> {
  const t = await start(opts);
  make(join(t.root, `a.${kind}`), kind === 'zip' ? PY_ZIP : PY_TAR, spec);
  return t;
}

function extract(t: TestApp, archive: string, to: string | { dest: string; extra?: string; as?: string }) {
  const { dest, extra, as } = typeof to === 'string' ? { dest: to } : to;
  return call(t, { method: 'PATCH', url: `/api/resources/${archive}?action=extract&destination=${encodeURIComponent(dest)}${extra ?? ''}`, as });
}

/** The served root holds only the archive: nothing was written, no staging folder is left. */
async function nothingWritten(t: TestApp, archive: string): Promise<void> {
  expect(await readdir(t.root)).toEqual([archive]);
}

const HOSTILE: [string, Spec, string][] = [
  ['a ../ name', [['ok.txt', 'fine'], ['../evil.txt', 'x']], '"../evil.txt"'],
  ['a ../ inside a name', [['ok.txt', 'fine'], ['d/../../evil.txt', 'x']], '"d/../../evil.txt"'],
  ['an absolute name', [['ok.txt', 'fine'], ['/etc/evil.txt', 'x']], '"/etc/evil.txt"'],
  ['a symlink to an absolute path', [['ok.txt', 'fine'], ['lnk', { link: '/etc' }]], '"lnk"'],
  ['a symlink leaving by ..', [['ok.txt', 'fine'], ['d/lnk', { link: '../../outside' }]], '"d/lnk"'],
  ['a symlink leaving through another (safe-looking) link', [['ok.txt', 'fine'], ['here', { link: '.' }], ['esc', { link: 'here/../x' }]], '"esc"'],
  ['a server temporary name', [['ok.txt', 'fine'], ['.filemgr-tmp-x', 'x']], '".filemgr-tmp-x"'],
];

describe('PATCH ?action=extract refuses hostile archives, writing nothing', { timeout: 60_000 }, () => {
  it.each(HOSTILE.flatMap(([label, spec, named]) => (['tar.gz', 'zip'] as const).map((kind) => ({ label: `${label} (${kind})`, spec, named, kind }))))(
    '$label',
    async ({ spec, named, kind }) => {
      const t = await setup(spec, kind);
      const res = await extract(t, `a.${kind}`, '/out');
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.body)).toContain(named.replace(/"/g, '\\"'));
      await nothingWritten(t, `a.${kind}`);
    },
  );

  it('a tar hard link to a path outside the archive is refused', async () => {
    const t = await setup([['ok.txt', 'fine'], ['h', { hard: '../../etc/passwd' }]], 'tar.gz');
    expect((await extract(t, 'a.tar.gz', '/out')).statusCode).toBe(400);
    await nothingWritten(t, 'a.tar.gz');
  });

  it('safe links are created: relative, inside the destination, through other links', async () => {
    const t = await setup([['d/f.txt', 'f'], ['up', { link: 'd/f.txt' }], ['d/self', { link: '../d' }], ['via', { link: 'd/self/f.txt' }]], 'tar.gz');
    expect((await extract(t, 'a.tar.gz', '/out')).statusCode).toBe(200);
    expect(await readFile(join(t.root, 'out/via'), 'utf8')).toBe('f');
  });

  it('a name the rules deny answers 400 naming it and writes nothing', async () => {
    const t = await setup([['ok.txt', 'fine'], ['secret/key.txt', 'k']], 'zip', { settings: (s) => { s.rules = [{ regex: false, allow: false, path: '/out/secret', regexp: null }]; } });
    const res = await extract(t, 'a.zip', '/out');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('secret/key.txt');
    await nothingWritten(t, 'a.zip');
  });

  it('a high-ratio zip is refused from its central directory (413) before writing', async () => {
    const t = await start();
    execFileSync('/usr/bin/python3', ['-c', "import sys,zipfile\nz=zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_DEFLATED,compresslevel=9)\nz.writestr('zeros', bytes(40*1024*1024))\nz.close()", join(t.root, 'bomb.zip')]);
    expect((await extract(t, 'bomb.zip', '/out')).statusCode).toBe(413);
    await nothingWritten(t, 'bomb.zip');
  });

  it('a high-ratio tar.xz is stopped while writing (413) and what was written is removed', async () => {
    const t = await start();
    execFileSync('sh', ['-c', 'head -c 30000000 /dev/zero > "$1/zeros" && tar -C "$1" --xz -cf "$1/bomb.tar.xz" zeros && rm "$1/zeros"', 'sh', t.root]);
    expect((await extract(t, 'bomb.tar.xz', '/out')).statusCode).toBe(413);
    await nothingWritten(t, 'bomb.tar.xz');
  });

  it.each([
    ['x.zip', Buffer.from('PK\u0003\u0004 this is not really a zip at all, just some bytes'), 'malformed archive'],
    ['x.tar', Buffer.alloc(1024, 0x41), 'malformed archive: not a tar archive'],
    ['x.tar.gz', Buffer.from('definitely not gzip'), 'malformed archive'],
    ['x.tar.bz2', Buffer.from('BZh9 truncated'), 'malformed archive'],
    ['x.tar.xz', Buffer.from('not xz at all'), 'malformed archive'],
    ['x.tar.zst', Buffer.from('not zstd at all'), 'malformed archive'],
  ])('a malformed %s answers 400 with the reason, never 500', async (name, bytes, reason) => {
    const t = await start();
    await writeFile(join(t.root, name), bytes);
    const res = await extract(t, name, '/out');
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain(reason);
    await nothingWritten(t, name);
  });

  it('a truncated tar.gz answers 400 and leaves nothing', async () => {
    const t = await setup([['a.txt', 'x'.repeat(100_000)], ['b.txt', 'y']], 'tar.gz');
    const whole = await readFile(join(t.root, 'a.tar.gz'));
    await writeFile(join(t.root, 'a.tar.gz'), whole.subarray(0, whole.length - 40));
    expect((await extract(t, 'a.tar.gz', '/out')).statusCode).toBe(400);
    await nothingWritten(t, 'a.tar.gz');
  });
});

describe('PATCH ?action=extract: conflicts, permissions, hooks', { timeout: 60_000 }, () => {
  it('existing names answer 409 unless override=true; override replaces files, merges folders', async () => {
    const t = await setup([['d/f.txt', 'new'], ['g.txt', 'g']], 'zip');
    await writeFile(join(t.root, 'keep.txt'), 'k');
    expect((await extract(t, 'a.zip', '/')).statusCode).toBe(200);
    await writeFile(join(t.root, 'd/f.txt'), 'old');
    await writeFile(join(t.root, 'd/mine.txt'), 'mine');
    expect((await extract(t, 'a.zip', '/')).statusCode).toBe(409);
    expect(await readFile(join(t.root, 'd/f.txt'), 'utf8')).toBe('old');
    expect((await extract(t, 'a.zip', { dest: '/', extra: '&override=true' })).statusCode).toBe(200);
    expect(await readFile(join(t.root, 'd/f.txt'), 'utf8')).toBe('new');
    expect(await readFile(join(t.root, 'd/mine.txt'), 'utf8')).toBe('mine');
    expect((await readdir(t.root)).sort()).toEqual(['a.zip', 'd', 'g.txt', 'keep.txt']);
  });

  it('a file over an existing folder is a conflict even with override', async () => {
    const t = await setup([['d', 'i am a file']], 'tar.gz');
    await writeFile(join(t.root, 'x'), '');
    execFileSync('mkdir', ['-p', join(t.root, 'out/d')]);
    expect((await extract(t, 'a.tar.gz', { dest: '/out', extra: '&override=true' })).statusCode).toBe(409);
    expect((await lstat(join(t.root, 'out/d'))).isDirectory()).toBe(true);
  });

  it('needs create, and modify to override', async () => {
    const t = await setup([['f.txt', 'f']], 'zip');
    const reader = await userWith(t, 'reader', 'download');
    const creator = await userWith(t, 'creator', 'create');
    expect((await extract(t, 'a.zip', { dest: '/out', as: reader })).statusCode).toBe(403);
    expect((await extract(t, 'a.zip', { dest: '/out', extra: '&override=true', as: creator })).statusCode).toBe(403);
    expect(await exists(join(t.root, 'out'))).toBe(false);
    expect((await extract(t, 'a.zip', { dest: '/out', as: creator })).statusCode).toBe(200);
    expect(await readFile(join(t.root, 'out/f.txt'), 'utf8')).toBe('f');
  });

  it('refuses what is not an archive, a folder, and a missing archive', async () => {
    const t = await start({ tree: { 'notes.txt': 'n', 'dir.zip/x': 'x' } });
    expect((await extract(t, 'notes.txt', '/out')).statusCode).toBe(400);
    expect((await extract(t, 'dir.zip', '/out')).statusCode).toBe(400);
    expect((await extract(t, 'missing.zip', '/out')).statusCode).toBe(404);
  });

  it('a failing before_upload hook stops the extraction', async () => {
    const opts: TestAppOptions = { env: { PATH: process.env.PATH }, config: { enableExec: true }, settings: (s) => { s.commands = { ...s.commands, before_upload: ['false'] }; } };
    const t = await setup([['f.txt', 'f']], 'zip', opts);
    expect((await extract(t, 'a.zip', '/out')).statusCode).toBe(500);
    await nothingWritten(t, 'a.zip');
  });
});
