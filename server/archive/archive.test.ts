import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { promisify } from 'node:util';
import { uncompressStream } from 'snappy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTree } from '../../tests/support/tree';
import { createArchiveStream, type ArchiveEntry } from './archive';
import { archiveExtension, type ArchiveFormat } from './formats';

const run = promisify(execFile);
const LONG_NAME = `${'a-rather-long-file-name-'.repeat(4)}${'x'.repeat(20)}.txt`; // 120+ characters

let root: string;
let source: string;

/** Entries for every file and directory below `dir`, parents before children, in name order. */
async function* walk(dir: string, prefix = ''): AsyncGenerator<ArchiveEntry> {
  const items = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const item of items) {
    const path = join(dir, item.name);
    const info = await stat(path);
    const name = prefix + item.name;
    yield {
      name,
      isDir: item.isDirectory(),
      size: item.isDirectory() ? 0 : info.size,
      mode: info.mode,
      mtime: info.mtime,
      open: () => createReadStream(path),
    };
    if (item.isDirectory()) yield* walk(path, `${name}/`);
  }
}

async function writeArchive(format: ArchiveFormat, entries: AsyncIterable<ArchiveEntry>, name = 'out'): Promise<string> {
  const file = join(root, `${name}-${format}${archiveExtension(format)}`);
  await pipeline(createArchiveStream(format, entries), createWriteStream(file));
  return file;
}

/** Decodes the snappy framing format with the `snappy` package (Rust snap), not with snappyjs. */
async function unsnappy(file: string, target: string): Promise<void> {
  // Node's and the DOM's ReadableStream types differ only nominally.
  const input = Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>;
  const output = uncompressStream(input) as unknown as NodeReadableStream<Uint8Array>;
  await pipeline(Readable.fromWeb(output), createWriteStream(target));
}

/** Tests the archive and extracts it into a fresh directory, with the standard tool of its format. */
async function extract(format: ArchiveFormat, file: string): Promise<string> {
  const dest = await mkdtemp(join(root, `x-${format}-`));
  switch (format) {
    case 'zip':
      await run('unzip', ['-tq', file]);
      await run('unzip', ['-q', file, '-d', dest]);
      break;
    case 'tarsz':
      await unsnappy(file, `${file}.tar`);
      await run('tar', ['-xf', `${file}.tar`, '-C', dest]);
      break;
    case 'tarbr':
      await run('brotli', ['-t', file]);
      await run('brotli', ['-d', '-f', '-o', `${file}.tar`, file]);
      await run('tar', ['-xf', `${file}.tar`, '-C', dest]);
      break;
    default:
      await run('tar', [...tarFlags(format), file, '-C', dest]);
  }
  return dest;
}

function tarFlags(format: ArchiveFormat): string[] {
  const flags: Partial<Record<ArchiveFormat, string[]>> = {
    tar: ['-xf'],
    targz: ['-xzf'],
    tarbz2: ['-xjf'],
    tarxz: ['-xJf'],
    tarlz4: ['--use-compress-program=lz4 -d', '-xf'],
    tarzst: ['--zstd', '-xf'],
  };
  return flags[format] ?? [];
}

/** The integrity check of the compression layer alone, with its own CLI. */
const layerCheck: Partial<Record<ArchiveFormat, string[]>> = {
  targz: ['gzip', '-t'],
  tarbz2: ['bzip2', '-t'],
  tarxz: ['xz', '-t'],
  tarlz4: ['lz4', '-t'],
  tarzst: ['zstd', '-t'],
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'filemgr-archive-'));
  source = await makeTree({
    'hello.txt': 'hello world\n'.repeat(1000),
    'random.bin': randomBytes(2 * 1024 * 1024),
    'empty.txt': '',
    'empty-dir': null,
    'ünïcödé ✓.txt': 'unicode name\n',
    [LONG_NAME]: 'long name\n',
    'nested/deeper/deepest/leaf.md': '# leaf\n',
    'nested/sibling.json': JSON.stringify({ a: 1 }),
    'run.sh': '#!/bin/sh\necho hi\n',
  }, 'filemgr-archive-src-');
  await chmod(join(source, 'run.sh'), 0o755);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(source, { recursive: true, force: true });
});

const formats: ArchiveFormat[] = ['zip', 'tar', 'targz', 'tarbz2', 'tarxz', 'tarlz4', 'tarsz', 'tarbr', 'tarzst'];

describe('createArchiveStream', () => {
  it.each(formats)('writes a %s archive that the standard tool extracts to an identical tree', async (format) => {
    const file = await writeArchive(format, walk(source));
    const check = layerCheck[format];
    if (check) await run(check[0]!, [...check.slice(1), file]);
    const dest = await extract(format, file);
    await expect(run('diff', ['-r', source, dest])).resolves.toMatchObject({ stdout: '' });
    expect((await stat(join(dest, 'empty-dir'))).isDirectory()).toBe(true);
    expect((await stat(join(dest, 'run.sh'))).mode & 0o777).toBe(0o755);
  }, 60_000);

  it.each(['zip', 'tar', 'tarxz'] as const)('leaves out a %s entry that cannot be opened and keeps the rest intact', async (format) => {
    const skipped: string[] = [];
    async function* entries(): AsyncGenerator<ArchiveEntry> {
      yield* walk(source);
      yield { name: 'gone.txt', isDir: false, size: 10, mode: 0o644, mtime: new Date(), open: () => createReadStream(join(source, 'missing')) };
      yield { name: 'after.txt', isDir: false, size: 6, mode: 0o644, mtime: new Date(), open: () => Readable.from([Buffer.from('after\n')]) };
    }
    const file = join(root, `skip-${format}${archiveExtension(format)}`);
    const stream = createArchiveStream(format, entries(), { onSkip: (name) => skipped.push(name) });
    await pipeline(stream, createWriteStream(file));
    const dest = await extract(format, file);
    expect(skipped).toEqual(['gone.txt']);
    await expect(run('diff', ['-r', '-x', 'after.txt', source, dest])).resolves.toMatchObject({ stdout: '' });
    await expect(run('cat', [join(dest, 'after.txt')])).resolves.toMatchObject({ stdout: 'after\n' });
  }, 60_000);

  it.each(['zip', 'tar'] as const)('writes backslashes as _ in %s names and leaves out names that could escape', async (format) => {
    const names = ['..\\..\\evil.sh', '../evil.sh', '/etc/passwd', 'a/../../b.txt', 'ok/../../c.txt', 'ok.txt'];
    const skipped: string[] = [];
    const entries = names.map((name) => fileEntry(name, Buffer.from(`${name}\n`)));
    const file = join(root, `names${archiveExtension(format)}`);
    await pipeline(createArchiveStream(format, toAsync(entries), { onSkip: (name) => skipped.push(name) }), createWriteStream(file));
    const listing = format === 'zip' ? await run('unzip', ['-Z1', file]) : await run('tar', ['-tf', file]);
    expect(listing.stdout.trim().split('\n').sort()).toEqual(['.._.._evil.sh', 'ok.txt']);
    expect(skipped).toEqual(['../evil.sh', '/etc/passwd', 'a/../../b.txt', 'ok/../../c.txt']);
  });

  it.each([
    ['zip', 'ends early'],
    ['zip', 'fails mid-read'],
    ['tar', 'ends early'],
    ['tar', 'fails mid-read'],
    ['tarlz4', 'fails mid-read'],
  ] as const)('pads a %s entry whose file %s to its announced size and keeps the archive valid', async (format, how) => {
    const skipped: string[] = [];
    async function* shortBody(): AsyncGenerator<Buffer> {
      yield Buffer.from('0123456789');
      await Promise.resolve();
      if (how === 'fails mid-read') throw new Error('EIO');
    }
    const entries = [
      { ...fileEntry('short.bin', Buffer.alloc(0)), size: 100, open: () => Readable.from(shortBody()) },
      fileEntry('grown.txt', Buffer.from('0123456789'), 4),
      fileEntry('next.txt', Buffer.from('next\n')),
    ];
    const file = join(root, `short-${how.replace(' ', '-')}-${format}${archiveExtension(format)}`);
    await pipeline(createArchiveStream(format, toAsync(entries), { onSkip: (name) => skipped.push(name) }), createWriteStream(file));
    const dest = await extract(format, file);
    expect(await readFile(join(dest, 'short.bin'))).toEqual(Buffer.concat([Buffer.from('0123456789'), Buffer.alloc(90)]));
    expect(await readFile(join(dest, 'grown.txt'), 'utf8')).toBe('0123');
    expect(await readFile(join(dest, 'next.txt'), 'utf8')).toBe('next\n');
    expect(skipped).toEqual(['short.bin']);
  });

  it('keeps an empty entry list a valid, empty archive', async () => {
    const file = await writeArchive('tarxz', toAsync([]), 'empty');
    await run('xz', ['-t', file]);
    expect((await run('tar', ['-tJf', file])).stdout).toBe('');
  });
});

function fileEntry(name: string, content: Buffer, size = content.length): ArchiveEntry {
  return { name, isDir: false, size, mode: 0o644, mtime: new Date('2024-01-02T03:04:05Z'), open: () => Readable.from([content]) };
}

/** The entries one at a time, each after an await, as a directory walk delivers them. */
async function* toAsync(entries: ArchiveEntry[]): AsyncGenerator<ArchiveEntry> {
  for (const entry of entries) {
    await Promise.resolve();
    yield entry;
  }
}
