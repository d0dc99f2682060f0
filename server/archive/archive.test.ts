import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
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
  };
  return flags[format] ?? [];
}

/** The integrity check of the compression layer alone, with its own CLI. */
const layerCheck: Partial<Record<ArchiveFormat, string[]>> = {
  targz: ['gzip', '-t'],
  tarbz2: ['bzip2', '-t'],
  tarxz: ['xz', '-t'],
  tarlz4: ['lz4', '-t'],
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

const formats: ArchiveFormat[] = ['zip', 'tar', 'targz', 'tarbz2', 'tarxz', 'tarlz4', 'tarsz', 'tarbr'];

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
});

