/** One ELF note: its name (NUL added) and descriptor. */
export interface ElfNote {
  name: string;
  desc: Buffer;
  type?: number;
}

/**
 * A minimal little-endian 64-bit ELF file whose one PT_NOTE segment holds `notes`, after a PT_LOAD
 * header that maps nothing: enough for a reader of program headers and notes (server/lib/sea-file.ts).
 */
export function elfWithNotes(notes: readonly ElfNote[], align: 4 | 8 = 4): Buffer {
  const pad = (n: number): number => Math.ceil(n / align) * align;
  const noteBytes = Buffer.concat(
    notes.flatMap((note) => {
      const name = Buffer.from(`${note.name}\0`, 'latin1');
      const head = Buffer.alloc(12);
      head.writeUInt32LE(name.length, 0);
      head.writeUInt32LE(note.desc.length, 4);
      head.writeUInt32LE(note.type ?? 0, 8);
      return [head, name, Buffer.alloc(pad(name.length) - name.length), note.desc, Buffer.alloc(pad(note.desc.length) - note.desc.length)];
    }),
  );
  const header = Buffer.alloc(64);
  header.writeUInt32BE(0x7f454c46, 0);
  header[4] = 2; // 64-bit
  header[5] = 1; // little-endian
  header[6] = 1;
  header.writeBigUInt64LE(64n, 0x20); // e_phoff
  header.writeUInt16LE(64, 0x34); // e_ehsize
  header.writeUInt16LE(56, 0x36); // e_phentsize
  header.writeUInt16LE(2, 0x38); // e_phnum
  const load = Buffer.alloc(56);
  load.writeUInt32LE(1, 0); // PT_LOAD
  const note = Buffer.alloc(56);
  note.writeUInt32LE(4, 0); // PT_NOTE
  const noteOffset = 64 + 2 * 56;
  note.writeBigUInt64LE(BigInt(noteOffset), 8);
  note.writeBigUInt64LE(BigInt(noteBytes.length), 32);
  note.writeBigUInt64LE(BigInt(align), 48);
  return Buffer.concat([header, load, note, noteBytes]);
}
