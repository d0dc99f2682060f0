import type { PackedFiles } from './worker-protocol';

/** Packs buffers into one fresh buffer that the receiver may own (see PackedFiles). */
export function packFiles(files: readonly (Uint8Array | undefined)[]): PackedFiles {
  const sizes = files.map((file) => file?.length ?? -1);
  const bytes = new Uint8Array(sizes.reduce((sum, size) => sum + Math.max(size, 0), 0));
  let offset = 0;
  for (const file of files) {
    if (!file) continue;
    bytes.set(file, offset);
    offset += file.length;
  }
  return { bytes, sizes };
}

/** The buffers of a packed batch, as views into it (undefined where the size is -1). */
export function unpackFiles({ bytes, sizes }: PackedFiles): (Buffer | undefined)[] {
  let offset = 0;
  return sizes.map((size) => {
    if (size < 0) return undefined;
    const view = Buffer.from(bytes.buffer, bytes.byteOffset + offset, size);
    offset += size;
    return view;
  });
}
