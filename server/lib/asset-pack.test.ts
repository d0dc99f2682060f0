import { describe, expect, it } from 'vitest';
import { packFiles, packReader } from './asset-pack';

function arrayBufferOf(b: Buffer): ArrayBuffer {
  return new Uint8Array(b).buffer;
}

describe('the asset pack', () => {
  const files = [
    { key: 'web/index.html', data: Buffer.from('<!doctype html>') },
    { key: 'empty.txt', data: Buffer.alloc(0) },
    { key: 'web/assets/a.js', data: Buffer.from('console.log(1)') },
  ];

  it('reads back every file byte for byte, empty ones included', () => {
    const { pack, index } = packFiles(files);
    const read = packReader(index, arrayBufferOf(pack));
    for (const f of files) expect(read(f.key)?.equals(f.data)).toBe(true);
    expect(pack.length).toBe(files.reduce((n, f) => n + f.data.length, 0));
  });

  it('answers undefined for a key it does not hold, including inherited property names', () => {
    const { pack, index } = packFiles(files);
    const read = packReader(index, arrayBufferOf(pack));
    expect(read('web/missing.js')).toBeUndefined();
    expect(read('constructor')).toBeUndefined();
    expect(read('__proto__')).toBeUndefined();
  });

  it('returns views of the pack, not copies', () => {
    const { pack, index } = packFiles(files);
    const buffer = arrayBufferOf(pack);
    expect(packReader(index, buffer)('web/assets/a.js')?.buffer).toBe(buffer);
  });

  it('refuses an index that points past the end of the pack', () => {
    const { pack, index } = packFiles(files);
    expect(() => packReader(index, arrayBufferOf(pack.subarray(0, 10)))('web/assets/a.js')).toThrow('shorter than its index');
  });
});
