/**
 * The executable's assets travel as one SEA asset (PACK_ASSET: every file end to end) and its
 * index (PACK_INDEX_ASSET: key to offset and length). Node walks the table of a SEA's assets at
 * every start, touching each entry's page: ~740 small web files spread over 17 MB of the binary
 * kept ~4 MB of it resident for nothing. Two entries are walked instead, and a file's pages are
 * read only when it is served.
 */

export const PACK_ASSET = 'assets.pack';
export const PACK_INDEX_ASSET = 'assets.pack.json';

/** Key (a path below dist/assets) to [offset, length] in the pack. */
export type PackIndex = Record<string, [number, number]>;

/** The pack of some files, in the order given, and its index. */
export function packFiles(files: readonly { key: string; data: Buffer }[]): { pack: Buffer; index: PackIndex } {
  const index: PackIndex = {};
  let offset = 0;
  for (const f of files) {
    index[f.key] = [offset, f.data.length];
    offset += f.data.length;
  }
  return { pack: Buffer.concat(files.map((f) => f.data), offset), index };
}

/** A reader of one packed file: a view into the pack, never a copy. */
export function packReader(index: PackIndex, pack: ArrayBuffer): (key: string) => Buffer | undefined {
  return (key) => {
    if (!Object.hasOwn(index, key)) return undefined;
    const [offset, length] = index[key]!;
    if (offset + length > pack.byteLength) throw new Error(`the asset pack is shorter than its index says (${key})`);
    return Buffer.from(pack, offset, length);
  };
}
