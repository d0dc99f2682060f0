import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesce';

describe('coalesce', () => {
  it('passes every byte on, in order, in far fewer chunks', async () => {
    const parts = Array.from({ length: 2000 }, (_, i) => Buffer.from(`part-${i};`));
    const chunks: Buffer[] = [];
    for await (const chunk of coalesce(Readable.from(parts, { objectMode: false }))) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(Buffer.concat(parts))).toBe(true);
    expect(chunks.length).toBeLessThan(20);
  });

  it('hands a lone small chunk over without waiting for more', async () => {
    const source = new Readable({ read() {} });
    const out = coalesce(source);
    const first = new Promise<Buffer>((resolve) => out.once('data', resolve));
    source.push(Buffer.from('hello'));
    expect((await first).toString()).toBe('hello');
    out.destroy();
  });

  it('destroys the source when the consumer goes away', async () => {
    const source = new Readable({ read() {} });
    const out = coalesce(source);
    out.destroy();
    await new Promise((r) => setTimeout(r, 10));
    expect(source.destroyed).toBe(true);
  });
});
