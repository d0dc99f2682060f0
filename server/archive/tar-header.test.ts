import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCK, endOfArchive, padding, tarHeader, type TarHeaderFields } from './tar-header';

const run = promisify(execFile);
const MTIME = new Date('2023-06-15T12:34:56Z');
const MTIME_SECONDS = MTIME.getTime() / 1000;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'filemgr-tarheader-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (fields: Partial<TarHeaderFields> & { name: string }): TarHeaderFields => ({
  isDir: false,
  size: 0,
  mode: 0o644,
  mtime: MTIME,
  ...fields,
});

/** A NUL-terminated (or full-width) string field. */
function text(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** An octal numeric field: digits then NUL, as ustar writes them. */
function octal(block: Buffer, offset: number, length: number): number {
  const raw = block.subarray(offset, offset + length).toString('latin1');
  expect(raw).toMatch(/^[0-7]+[\0 ]+$/);
  return parseInt(raw, 8);
}

/** The checksum POSIX defines: every byte summed, the checksum field counted as eight spaces. */
function expectValidChecksum(block: Buffer): void {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
  expect(octal(block, 148, 8)).toBe(sum);
}

function single(fields: TarHeaderFields): Buffer {
  const blocks = tarHeader(fields);
  expect(blocks).toHaveLength(1);
  const block = blocks[0] as Buffer;
  expect(block.length).toBe(BLOCK);
  expectValidChecksum(block);
  return block;
}

/** The pax header's type flag, its records as key/value pairs, and the ustar block that follows. */
function paxOf(fields: TarHeaderFields): { type: string; records: Record<string, string>; ustar: Buffer } {
  const blocks = tarHeader(fields);
  expect(blocks).toHaveLength(4);
  const [head, data, pad, ustar] = blocks as [Buffer, Buffer, Buffer, Buffer];
  expect(head.length).toBe(BLOCK);
  expectValidChecksum(head);
  expectValidChecksum(ustar);
  expect(octal(head, 124, 12)).toBe(data.length);
  expect(pad.every((byte) => byte === 0)).toBe(true);
  expect((data.length + pad.length) % BLOCK).toBe(0);
  const records: Record<string, string> = {};
  let rest = data;
  while (rest.length > 0) {
    const space = rest.indexOf(0x20);
    const length = Number(rest.subarray(0, space).toString('latin1'));
    const record = rest.subarray(0, length);
    expect(record.length).toBe(length);
    // The length counts the record's own bytes, digits and final newline included.
    expect(record[record.length - 1]).toBe(0x0a);
    const body = record.subarray(space + 1, record.length - 1).toString('utf8');
    const eq = body.indexOf('=');
    records[body.slice(0, eq)] = body.slice(eq + 1);
    rest = rest.subarray(length);
  }
  return { type: text(head, 156, 1), records, ustar };
}

describe('tarHeader', () => {
  it('writes a plain file header with octal fields, the ustar magic and a valid checksum', () => {
    const block = single(entry({ name: 'docs/readme.txt', size: 1234, mode: 0o640 }));
    expect(text(block, 0, 100)).toBe('docs/readme.txt');
    expect(block.subarray(100, 108).toString('latin1')).toBe('0000640\0');
    expect(octal(block, 108, 8)).toBe(0);
    expect(octal(block, 116, 8)).toBe(0);
    expect(block.subarray(124, 136).toString('latin1')).toBe('00000002322\0');
    expect(octal(block, 136, 12)).toBe(MTIME_SECONDS);
    expect(text(block, 156, 1)).toBe('0');
    expect(block.subarray(257, 265).toString('latin1')).toBe('ustar\u000000');
    expect(text(block, 345, 155)).toBe('');
  });

  it('writes a directory with type 5 and a trailing slash', () => {
    const block = single(entry({ name: 'photos/2024', isDir: true, mode: 0o755 }));
    expect(text(block, 0, 100)).toBe('photos/2024/');
    expect(text(block, 156, 1)).toBe('5');
    expect(octal(block, 100, 8)).toBe(0o755);
    expect(octal(block, 124, 12)).toBe(0);
  });

  it('keeps a name of exactly 100 bytes in the name field, with no NUL after it', () => {
    const name = `${'n'.repeat(50)}/${'m'.repeat(49)}`;
    const block = single(entry({ name }));
    expect(block.subarray(0, 100).toString('latin1')).toBe(name);
    expect(text(block, 345, 155)).toBe('');
  });

  it('splits a longer ASCII path at a slash into prefix and name', () => {
    const name = `${'a'.repeat(60)}/${'b'.repeat(60)}/${'c'.repeat(20)}.txt`;
    const block = single(entry({ name }));
    expect(text(block, 345, 155)).toBe('a'.repeat(60));
    expect(text(block, 0, 100)).toBe(`${'b'.repeat(60)}/${'c'.repeat(20)}.txt`);
  });

  it('splits at the limits: a 155-byte prefix and a 100-byte name', () => {
    const name = `${'p'.repeat(155)}/${'n'.repeat(100)}`;
    const block = single(entry({ name }));
    expect(block.subarray(345, 500).toString('latin1')).toBe('p'.repeat(155));
    expect(block.subarray(0, 100).toString('latin1')).toBe('n'.repeat(100));
  });

  it('splits a long directory path with its trailing slash in the name field', () => {
    const block = single(entry({ name: `${'d'.repeat(90)}/${'e'.repeat(40)}`, isDir: true }));
    expect(text(block, 345, 155)).toBe('d'.repeat(90));
    expect(text(block, 0, 100)).toBe(`${'e'.repeat(40)}/`);
  });

  it.each([
    ['a 101-byte single segment', 'x'.repeat(101)],
    ['a 120-byte single segment', 'y'.repeat(120)],
    ['a 156-byte prefix', `${'p'.repeat(156)}/${'n'.repeat(10)}`],
    ['a 101-byte last segment', `dir/${'n'.repeat(101)}`],
    ['a 300-byte path', `${'q'.repeat(99)}/${'r'.repeat(99)}/${'s'.repeat(100)}`],
  ])('writes %s that ustar cannot hold as a pax path record', (_, name) => {
    const { type, records, ustar } = paxOf(entry({ name, size: 7 }));
    expect(type).toBe('x');
    expect(records).toEqual({ path: name });
    expect(text(ustar, 156, 1)).toBe('0');
    expect(octal(ustar, 124, 12)).toBe(7);
    expect(name.startsWith(text(ustar, 0, 100))).toBe(true);
  });

  it.each([
    [90, 99],
    [91, 101],
    [92, 102],
    [989, 999],
    [990, 1001],
    [991, 1002],
    [992, 1003],
  ])('counts its own digits in the length of a record whose value has %i bytes (%i in all)', (valueBytes, total) => {
    // " path=" + value + "\n" is valueBytes + 7 bytes; a non-ASCII value forces the pax record.
    const name = `é${'a'.repeat(valueBytes - 2)}`;
    const data = tarHeader(entry({ name }))[1] as Buffer;
    expect(data.toString('utf8')).toBe(`${total} path=${name}\n`);
    expect(data.length).toBe(total);
  });

  it('writes a non-ASCII name as a UTF-8 pax path record', () => {
    const name = 'ünïcödé ✓/文件.txt';
    const { records, ustar } = paxOf(entry({ name, size: 3 }));
    expect(records).toEqual({ path: name });
    expect(text(ustar, 0, 100)).toBe(name);
  });

  it('cuts a long non-ASCII fallback name between characters', () => {
    const name = `${'a'.repeat(99)}文件.txt`;
    const { records, ustar } = paxOf(entry({ name }));
    expect(records.path).toBe(name);
    const field = ustar.subarray(0, 100);
    expect(field.subarray(0, 99).toString('latin1')).toBe('a'.repeat(99));
    expect(field[99]).toBe(0);
  });

  it('gives a directory that ustar cannot hold a pax path with its trailing slash', () => {
    const name = 'v'.repeat(130);
    const { records, ustar } = paxOf(entry({ name, isDir: true }));
    expect(records).toEqual({ path: `${name}/` });
    expect(text(ustar, 156, 1)).toBe('5');
  });

  it('keeps a size of 8 GiB - 1 in ustar and moves a larger one to a pax size record', () => {
    const max = 0o77777777777;
    expect(single(entry({ name: 'big.bin', size: max })).subarray(124, 136).toString('latin1')).toBe('77777777777\0');
    const { records, ustar } = paxOf(entry({ name: 'huge.bin', size: max + 1 }));
    expect(records).toEqual({ size: String(max + 1) });
    expect(text(ustar, 0, 100)).toBe('huge.bin');
    expect(octal(ustar, 124, 12)).toBe(0);
    const both = paxOf(entry({ name: 'ü'.repeat(3), size: 5 * 2 ** 40 }));
    expect(both.records).toEqual({ path: 'üüü', size: String(5 * 2 ** 40) });
  });

  it('clamps an mtime before the epoch to zero', () => {
    expect(octal(single(entry({ name: 'old', mtime: new Date('1960-01-01T00:00:00Z') })), 136, 12)).toBe(0);
  });
});

describe('padding and endOfArchive', () => {
  it.each([
    [0, 0],
    [1, 511],
    [511, 1],
    [512, 0],
    [513, 511],
    [10_000, 240],
  ])('pads %i bytes with %i zero bytes', (size, expected) => {
    const pad = padding(size);
    expect(pad.length).toBe(expected);
    expect((size + pad.length) % BLOCK).toBe(0);
    expect(pad.every((byte) => byte === 0)).toBe(true);
  });

  it('ends an archive with 1024 zero bytes', () => {
    const end = endOfArchive();
    expect(end.length).toBe(1024);
    expect(end.every((byte) => byte === 0)).toBe(true);
  });
});

describe('a tar built from these headers', () => {
  it('is listed and extracted by GNU tar with the exact names, contents and mtimes', async () => {
    const nested = `${'level-one-'.repeat(6)}/${'level-two-'.repeat(6)}/leaf.txt`;
    // GNU tar sets a directory's mtime once it moves past its members: they follow it here.
    const entries: (TarHeaderFields & { data: Buffer })[] = [
      { name: 'ünïcödé ✓/文件.txt', content: 'unicode ✓' },
      { name: 'x'.repeat(100), content: 'hundred' },
      { name: nested, content: 'nested' },
      { name: `${'d'.repeat(99)}/${'e'.repeat(99)}/${'f'.repeat(100)}`, content: 'three hundred' },
      { name: 'g'.repeat(120), content: 'one segment' },
      { name: 'block.bin', content: 'b'.repeat(512) },
      { name: 'empty.txt', content: '' },
    ].map(({ name, content }, i) => {
      const data = Buffer.from(content);
      return { name, isDir: false, size: data.length, mode: 0o600 + i, mtime: new Date(Date.UTC(2001 + i, i, 1 + i, i, 2 * i, 3 * i)), data };
    });
    const dirs: TarHeaderFields[] = [
      { name: 'h'.repeat(150), isDir: true, size: 0, mode: 0o700, mtime: new Date('2010-05-05T05:05:05Z') },
      { name: 'ünïcödé ✓', isDir: true, size: 0, mode: 0o750, mtime: new Date('1999-12-31T23:59:59Z') },
    ];
    const parts: Buffer[] = [];
    for (const dirEntry of dirs) parts.push(...tarHeader(dirEntry));
    for (const file of entries) parts.push(...tarHeader(file), file.data, padding(file.size));
    parts.push(endOfArchive());
    const archive = join(dir, 'tricky.tar');
    await writeFile(archive, Buffer.concat(parts));

    const { stdout } = await run('tar', ['-tf', archive]);
    expect(stdout.split('\n').slice(0, -1)).toEqual([...dirs.map((d) => `${d.name}/`), ...entries.map((e) => e.name)]);

    const dest = join(dir, 'out');
    await mkdir(dest);
    await run('tar', ['-xpf', archive, '-C', dest]);
    for (const file of entries) {
      const path = join(dest, file.name);
      expect(await readFile(path)).toEqual(file.data);
      const info = await stat(path);
      expect(info.mtime.getTime()).toBe(file.mtime.getTime());
      expect(info.mode & 0o777).toBe(file.mode);
    }
    for (const dirEntry of dirs) {
      const info = await stat(join(dest, dirEntry.name));
      expect(info.isDirectory()).toBe(true);
      expect(info.mtime.getTime()).toBe(dirEntry.mtime.getTime());
      expect(info.mode & 0o777).toBe(dirEntry.mode);
    }
  });
});
