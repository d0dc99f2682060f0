import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dirsRemovedAfterEachTest } from '../../../tests/support/per-test';
import { makeTree } from '../../../tests/support/tree';
import { defaultArchiveWorkerSource } from '../worker-source';
import { createBzip2Decoder } from './bzip2-decoder';
import { entryPath, linkDestination } from './entry-names';
import { extractArchive, type ExtractOptions } from './extract';

const temps = dirsRemovedAfterEachTest();

async function archived(kind: 'zip' | 'tar.gz', files: Record<string, string>): Promise<{ dir: string; archive: string }> {
  const dir = await makeTree(Object.fromEntries(Object.entries(files).map(([k, v]) => [`src/${k}`, v])));
  temps.push(dir);
  const archive = join(dir, `a.${kind}`);
  if (kind === 'zip') execFileSync('zip', ['-q', '-r', archive, '.'], { cwd: join(dir, 'src') });
  else execFileSync('tar', ['-czf', archive, '-C', join(dir, 'src'), '.']);
  return { dir, archive };
}

function options(archive: string, dest: string, over: Partial<ExtractOptions>): ExtractOptions {
  const kind = archive.endsWith('.zip') ? 'zip' : 'tar.gz';
  return { archive, kind, dest, override: false, vet: entryPath, modes: { fileMode: 0o644, dirMode: 0o755 }, room: null, workerSource: defaultArchiveWorkerSource(), ...over };
}

describe('extractArchive limits', { timeout: 60_000 }, () => {
  it.each(['zip', 'tar.gz'] as const)('%s: more bytes than the quota leaves answer 507 and leave nothing', async (kind) => {
    const { dir, archive } = await archived(kind, { 'a.txt': 'a'.repeat(5000), 'b.txt': 'b'.repeat(5000) });
    await expect(extractArchive(options(archive, join(dir, 'out'), { room: 6000 }))).rejects.toMatchObject({ status: 507 });
    expect((await readdir(dir)).sort()).toEqual([`a.${kind}`, 'src']);
    await extractArchive(options(archive, join(dir, 'out'), { room: 20_000 }));
    expect(await readFile(join(dir, 'out/b.txt'), 'utf8')).toBe('b'.repeat(5000));
  });

  it.each(['zip', 'tar.gz'] as const)('%s: more entries than the limit answer 413 and leave nothing', async (kind) => {
    const { dir, archive } = await archived(kind, { 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
    await expect(extractArchive(options(archive, join(dir, 'out'), { maxEntries: 2 }))).rejects.toMatchObject({ status: 413 });
    expect((await readdir(dir)).sort()).toEqual([`a.${kind}`, 'src']);
  });
});

/** Sets the uncompressed size the zip's central directory declares for `name`. */
async function declareSize(archive: string, name: string, size: number): Promise<void> {
  const zip = await readFile(archive);
  for (let at = zip.indexOf('PK\x01\x02', 0, 'latin1'); at !== -1; at = zip.indexOf('PK\x01\x02', at + 4, 'latin1')) {
    const nameLength = zip.readUInt16LE(at + 28);
    if (zip.toString('utf8', at + 46, at + 46 + nameLength) === name) zip.writeUInt32LE(size, at + 24);
  }
  await writeFile(archive, zip);
}

/** Text that deflates but not to nothing: numbered lines. */
function text(bytes: number): string {
  return Array.from({ length: Math.ceil(bytes / 12) }, (_, i) => `${String(i * 7919).padStart(10, '0')}\n`).join('').slice(0, bytes);
}

describe('extractArchive zip entry sizes', { timeout: 60_000 }, () => {
  const files = { 'small.txt': text(5000), 'big.txt': text(700_000), 'empty.txt': '' };

  it('writes small (inflated whole) and large (inflated in pieces) entries byte for byte', async () => {
    const { dir, archive } = await archived('zip', files);
    await extractArchive(options(archive, join(dir, 'out'), {}));
    for (const [name, body] of Object.entries(files)) expect(await readFile(join(dir, 'out', name), 'utf8')).toBe(body);
  });

  it.each([
    ['small.txt', 4000],
    ['small.txt', 6000],
    ['big.txt', 600_000],
    ['big.txt', 800_000],
  ])('%s declared as %i bytes answers 400 and leaves nothing', async (name, size) => {
    const { dir, archive } = await archived('zip', files);
    await declareSize(archive, name, size);
    await expect(extractArchive(options(archive, join(dir, 'out'), {}))).rejects.toMatchObject({ status: 400 });
    expect((await readdir(dir)).sort()).toEqual(['a.zip', 'src']);
  });
});

describe('entry names and links', () => {
  it.each([
    ['a/./b//c', 'a/b/c'],
    ['./', ''],
    ['dir/', 'dir'],
  ])('%s is %s', (name, rel) => expect(entryPath(name)).toBe(rel));

  it.each(['../x', 'a/../../x', '/abs', 'C:evil', 'a\0b'])('%s is refused', (name) => expect(() => entryPath(name)).toThrow(/refused entry/));

  it('follows the archive links lexically and refuses cycles and escapes', () => {
    const links = new Map([['a', 'b'], ['b', 'a'], ['up', '..'], ['d/self', '.']]);
    expect(linkDestination('a', 'b', links)).toBeNull();
    expect(linkDestination('x', 'up/y', links)).toBeNull();
    expect(linkDestination('d/x', 'self/../f', links)).toBe('f');
    expect(linkDestination('d/x', '../d/self/g', links)).toBe('d/g');
  });
});

describe('the bzip2 decoder', () => {
  it('decodes what bzip2 made, fed in small pieces, and refuses a flipped bit', () => {
    const text = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `line ${i} ${'ab'.repeat(i % 7)}\n`).join(''));
    const packed = execFileSync('bzip2', ['-c'], { input: text });
    const decoder = createBzip2Decoder();
    const out: Uint8Array[] = [];
    for (let i = 0; i < packed.length; i += 1000) out.push(...decoder.write(packed.subarray(i, i + 1000)));
    out.push(...decoder.end());
    expect(Buffer.concat(out).equals(text)).toBe(true);
    const bad = Buffer.from(packed);
    bad[200]! ^= 0x10;
    const broken = createBzip2Decoder();
    expect(() => [...broken.write(bad), ...broken.end()]).toThrow(/bzip2 data is corrupt/);
  });
});
