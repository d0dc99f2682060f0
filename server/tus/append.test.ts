import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendBody, drain, sizeOf } from './append';

let dir: string;
let temp: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'filemgr-append-'));
  temp = join(dir, 'upload');
  await writeFile(temp, 'head:');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function chunks(n: number, size: number): Buffer[] {
  return Array.from({ length: n }, (_, i) => Buffer.alloc(size, 97 + (i % 26)));
}

describe('appendBody', () => {
  it('appends the body at the offset across many batches and returns its length', async () => {
    const parts = chunks(40, 512 * 1024);
    const written = await appendBody(temp, { offset: 5, room: 40 * 512 * 1024 }, Readable.from(parts));
    expect(written).toBe(40 * 512 * 1024);
    const data = await readFile(temp);
    expect(data.equals(Buffer.concat([Buffer.from('head:'), ...parts]))).toBe(true);
  });

  it('refuses a body longer than the room left with 413, cuts the file back, and leaves the stream open', async () => {
    const body = new PassThrough();
    const done = appendBody(temp, { offset: 5, room: 10 }, body);
    body.write(Buffer.alloc(8, 120));
    body.write(Buffer.alloc(8, 121));
    await expect(done).rejects.toMatchObject({ code: 'too_large' });
    expect(await readFile(temp, 'utf8')).toBe('head:');
    expect(body.destroyed).toBe(false);
    body.end();
  });

  it('keeps the bytes that arrived before the client went away', async () => {
    const body = new PassThrough();
    const done = appendBody(temp, { offset: 5, room: 100 }, body);
    body.write(Buffer.from('abc'));
    await new Promise((r) => setTimeout(r, 20));
    body.destroy(new Error('aborted'));
    await expect(done).rejects.toThrow('aborted');
    expect(await readFile(temp, 'utf8')).toBe('head:abc');
    expect(await sizeOf(temp)).toBe(8);
  });
});

describe('drain', () => {
  it('reads what is left of a body within the limit', async () => {
    const body = Readable.from(chunks(4, 1024));
    expect(await drain(body, 8192)).toBe(true);
    expect(body.readableEnded).toBe(true);
  });

  it('gives up past the limit', async () => {
    expect(await drain(Readable.from(chunks(4, 1024)), 2048)).toBe(false);
  });

  it('gives up when the client stops sending', async () => {
    const body = new PassThrough();
    body.write('x');
    expect(await drain(body, 1024, 50)).toBe(false);
  });
});

describe('a stalled client', () => {
  it('is dropped after the stall time, keeping the bytes it sent', async () => {
    const body = new PassThrough();
    const done = appendBody(temp, { offset: 5, room: 100, stallMs: 50 }, body);
    body.write(Buffer.from('xyz'));
    await expect(done).rejects.toThrow('upload stalled');
    expect(body.destroyed).toBe(true);
    expect(await readFile(temp, 'utf8')).toBe('head:xyz');
  });
});
