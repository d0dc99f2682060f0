import { randomBytes } from 'node:crypto';
import { open, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTree } from '../../tests/support/tree';
import { FileBody } from './file-body';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});


async function fileWith(content: Buffer): Promise<string> {
  const dir = await makeTree({});
  dirs.push(dir);
  const path = join(dir, 'data.bin');
  await writeFile(path, content);
  return path;
}

/**
 * A destination that copies each chunk only when it completes the write, some time later, as
 * a socket hands bytes to the kernel: a buffer reused before then would be caught.
 */
function lateCopyingSink(delayMs: number): { sink: Writable; received: () => Buffer } {
  const parts: Buffer[] = [];
  const sink = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, done) {
      setTimeout(() => {
        parts.push(Buffer.from(chunk));
        done();
      }, delayMs);
    },
  });
  return { sink, received: () => Buffer.concat(parts) };
}

describe('FileBody', () => {
  // Random bytes: a buffer reused too early shows as wrong bytes (a periodic pattern might not).
  const content = randomBytes(3.5 * 1024 * 1024);

  it('pipes a range without reusing a buffer before its write has completed', async () => {
    const path = await fileWith(content);
    const fh = await open(path, 'r');
    const { sink, received } = lateCopyingSink(50);
    new FileBody({ fh, start: 1000, length: content.length - 2000 }).pipe(sink);
    await finished(sink);
    expect(received().equals(content.subarray(1000, content.length - 1000))).toBe(true);
  });

  it('streams the same bytes to a plain reader', async () => {
    const path = await fileWith(content);
    const fh = await open(path, 'r');
    const chunks: Buffer[] = [];
    for await (const chunk of new FileBody({ fh, start: 0, length: content.length })) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
  });

  it('closes the file when it is destroyed before the end', async () => {
    const path = await fileWith(content);
    const fh = await open(path, 'r');
    const { sink } = lateCopyingSink(20);
    const body = new FileBody({ fh, start: 0, length: content.length });
    body.pipe(sink);
    await new Promise((r) => setTimeout(r, 10));
    body.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(fh.fd).toBe(-1);
  });

  it('fails instead of sending short when the file shrank', async () => {
    const path = await fileWith(content);
    const fh = await open(path, 'r');
    await truncate(path, 1024);
    const { sink } = lateCopyingSink(0);
    const body = new FileBody({ fh, start: 0, length: content.length });
    const failed = new Promise<Error>((resolve) => body.once('error', resolve));
    body.pipe(sink);
    expect((await failed).message).toBe('file shrank while being sent');
  });
});
