import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACK_ASSET, PACK_INDEX_ASSET, packReader, type PackIndex } from '../server/lib/asset-pack';
import { locateSeaAssets } from '../server/lib/sea-file';
import { elfWithNotes } from '../tests/support/elf';
import { makeTree } from '../tests/support/tree';
import { repoLayout } from './layout';
import { embeddedNodeVersion, makeBlob } from './sea';

const root = resolve(__dirname, '..');

async function layoutWithBundle(code: string) {
  const dist = await makeTree({ 'filemgr.cjs': code, 'sea-main.cjs': '1', 'filemgr.cache': 'cache', 'assets/web/a.txt': 'asset' });
  mkdirSync(join(dist, 'assets'), { recursive: true });
  return { ...repoLayout(root), dist };
}

describe('the SEA blob', () => {
  it('is made by the pinned Node 24 and packs every file below dist/assets into one asset', async () => {
    const layout = await layoutWithBundle('console.log("hi")');
    await makeBlob(layout);
    expect(await embeddedNodeVersion(layout)).toMatch(/^v24\./);
    const config = JSON.parse(readFileSync(join(layout.dist, 'sea-config.json'), 'utf8')) as { main: string; assets: Record<string, string> };
    expect(config.main).toBe(join(layout.dist, 'sea-main.cjs'));
    expect(config.assets).toEqual({
      [PACK_ASSET]: join(layout.dist, PACK_ASSET),
      [PACK_INDEX_ASSET]: join(layout.dist, PACK_INDEX_ASSET),
      'filemgr.cjs': join(layout.dist, 'filemgr.cjs'),
      'filemgr.cache': join(layout.dist, 'filemgr.cache'),
    });
    const index = JSON.parse(readFileSync(join(layout.dist, PACK_INDEX_ASSET), 'utf8')) as PackIndex;
    const pack = readFileSync(join(layout.dist, PACK_ASSET));
    expect(packReader(index, new Uint8Array(pack).buffer)('web/a.txt')?.toString()).toBe('asset');
    expect(statSync(join(layout.dist, 'sea-prep.blob')).size).toBeGreaterThan(0);
  });

  it('lays its assets out where the executable reads them from its own file (server/lib/sea-file.ts)', async () => {
    const layout = await layoutWithBundle('console.log("hi")');
    await makeBlob(layout);
    // The pinned Node's blob, in an ELF note as postject injects it.
    const file = elfWithNotes([{ name: 'GNU', desc: Buffer.alloc(20), type: 3 }, { name: 'NODE_SEA_BLOB', desc: readFileSync(join(layout.dist, 'sea-prep.blob')) }]);
    const sources: Record<string, string> = { 'filemgr.cjs': 'filemgr.cjs', 'filemgr.cache': 'filemgr.cache', [PACK_ASSET]: PACK_ASSET, [PACK_INDEX_ASSET]: PACK_INDEX_ASSET };
    const expected = new Map(Object.entries(sources).map(([key, name]) => [key, statSync(join(layout.dist, name)).size]));
    const spans = locateSeaAssets((position, length) => file.subarray(position, position + length), expected);
    expect(spans).toBeDefined();
    for (const [key, name] of Object.entries(sources)) {
      const span = spans?.get(key);
      expect(span && file.subarray(span.offset, span.offset + span.length)).toEqual(readFileSync(join(layout.dist, name)));
    }
  });

  it('refuses a bundle that holds the SEA sentinel string, which would make injection fail silently', async () => {
    const sentinel = ['NODE', 'SEA', 'FUSE', 'fce680ab2cc467b6e072b8b5df1996b2'].join('_');
    const layout = await layoutWithBundle(`const s = "${sentinel}";`);
    await expect(makeBlob(layout)).rejects.toThrow('the SEA sentinel string appears in the bundle');
  });

  it('refuses an asset that holds the sentinel string', async () => {
    const layout = await layoutWithBundle('1');
    writeFileSync(join(layout.dist, 'assets/web/b.txt'), ['NODE', 'SEA', 'FUSE', 'fce680ab2cc467b6e072b8b5df1996b2'].join('_'));
    await expect(makeBlob(layout)).rejects.toThrow('sentinel');
  });
});
