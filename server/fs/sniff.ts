import { open, type FileHandle } from 'node:fs/promises';

/** api.md §12: type detection reads at most the first 512 bytes. */
export const SNIFF_BYTES = 512;

/** Reads up to the first 512 bytes of an open file; a read error is thrown. */
export async function readHandleHead(fh: FileHandle): Promise<Buffer> {
  const buf = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
  return buf.subarray(0, bytesRead);
}

/** Reads up to the first 512 bytes of a file (an unreadable file reads as empty). */
export async function readHead(realPath: string): Promise<Buffer> {
  let fh;
  try {
    fh = await open(realPath, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    return await readHandleHead(fh);
  } catch {
    return Buffer.alloc(0);
  } finally {
    await fh.close();
  }
}

interface Signature {
  mime: string;
  offset: number;
  bytes: number[];
  /** The 4-byte container tag the file must start with (RIFF and IFF formats). */
  container?: string;
}

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** The media signatures of the WHATWG sniffing algorithm that decide a §5.5 class. */
const signatures: Signature[] = [
  { mime: 'application/pdf', offset: 0, bytes: ascii('%PDF-') },
  { mime: 'image/png', offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mime: 'image/jpeg', offset: 0, bytes: [0xff, 0xd8, 0xff] },
  { mime: 'image/gif', offset: 0, bytes: ascii('GIF87a') },
  { mime: 'image/gif', offset: 0, bytes: ascii('GIF89a') },
  { mime: 'image/bmp', offset: 0, bytes: ascii('BM') },
  { mime: 'image/x-icon', offset: 0, bytes: [0x00, 0x00, 0x01, 0x00] },
  { mime: 'image/webp', offset: 8, bytes: ascii('WEBPVP'), container: 'RIFF' },
  { mime: 'audio/wave', offset: 8, bytes: ascii('WAVE'), container: 'RIFF' },
  { mime: 'video/avi', offset: 8, bytes: ascii('AVI '), container: 'RIFF' },
  { mime: 'audio/aiff', offset: 8, bytes: ascii('AIFF'), container: 'FORM' },
  { mime: 'audio/mpeg', offset: 0, bytes: ascii('ID3') },
  { mime: 'audio/midi', offset: 0, bytes: ascii('MThd') },
  { mime: 'audio/flac', offset: 0, bytes: ascii('fLaC') },
  { mime: 'video/webm', offset: 0, bytes: [0x1a, 0x45, 0xdf, 0xa3] },
  { mime: 'video/mp4', offset: 4, bytes: ascii('ftyp') },
];

function matches(buf: Buffer, sig: Signature): boolean {
  if (buf.length < sig.offset + sig.bytes.length) return false;
  if (sig.container !== undefined && buf.subarray(0, 4).toString('latin1') !== sig.container) return false;
  return sig.bytes.every((b, i) => buf[sig.offset + i] === b);
}

/** The MIME type the content's first bytes prove, or undefined. */
export function sniffMime(head: Buffer): string | undefined {
  return signatures.find((sig) => matches(head, sig))?.mime;
}

/** MPEG transport stream: 188-byte packets each starting with the sync byte 0x47 (§14: `.ts`). */
export function isMpegTs(head: Buffer): boolean {
  if (head.length < 188 || head[0] !== 0x47) return false;
  return head.length < 189 || head[188] === 0x47;
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Length of the UTF-8 sequence at `i`, or 0 when the bytes there are not valid UTF-8. */
function sequenceLength(buf: Buffer, i: number): number {
  const b = buf[i] ?? 0;
  if (b < 0x80) return 1;
  const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (len === 0 || i + len > buf.length) return 0;
  for (let k = 1; k < len; k++) {
    if (((buf[i + k] ?? 0) & 0xc0) !== 0x80) return 0;
  }
  const cp = utf8.decode(buf.subarray(i, i + len)).codePointAt(0) ?? 0xfffd;
  return cp === 0xfffd ? 0 : len;
}

/**
 * The §5.5 step 5 binary test: decoded as UTF-8 runes, any rune <= 8 means binary; an invalid
 * sequence means binary unless the invalid runes only fill the last 4 (a character cut at 512).
 */
export function isBinary(head: Buffer): boolean {
  const runes: number[] = [];
  for (let i = 0; i < head.length; ) {
    const len = sequenceLength(head, i);
    if (len === 0) {
      runes.push(-1);
      i += 1;
      continue;
    }
    if ((head[i] ?? 0) <= 8) return true;
    runes.push(len);
    i += len;
  }
  const firstInvalid = runes.indexOf(-1);
  if (firstInvalid < 0) return false;
  if (firstInvalid < runes.length - 4) return true;
  return runes.slice(firstInvalid).some((r) => r !== -1);
}
