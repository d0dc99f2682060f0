import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { AppError } from '../errors';
import { translated } from '../fs/fs-error';
import { looksLikeAss, parseAss } from './subtitle-ass';
import { parseSrt } from './subtitle-srt';
import { writeVtt } from './subtitle-vtt';

/**
 * Subtitles for the player (api.md §3.13): WebVTT is served as it is, SubRip and SubStation Alpha
 * are converted to WebVTT, the only format a <track> element takes.
 */
export type SubtitleKind = 'vtt' | 'srt' | 'ass';

/** Input cap: subtitle files are small, and conversion holds the whole text in memory. */
export const SUBTITLE_MAX_BYTES = 10 * 1024 * 1024;

const KINDS: Record<string, SubtitleKind> = { '.vtt': 'vtt', '.srt': 'srt', '.ass': 'ass', '.ssa': 'ass' };

/** The subtitle kind of a file name (extension, any case), or undefined when it is not a subtitle. */
export function subtitleKindOf(name: string): SubtitleKind | undefined {
  return KINDS[extname(name).toLowerCase()];
}

/**
 * The WebVTT text of a subtitle file, or null for a .vtt file, which is served unchanged. Unlike
 * upstream, `.SRT` and `.ASS` are converted too (upstream matched the suffix case-sensitively and
 * sent SubRip labelled as WebVTT, which no player reads). Throws bad_request for a name that is not
 * a subtitle or content that cannot be read as one, too_large past `maxBytes`.
 */
export async function readSubtitleAsVtt(realPath: string, maxBytes = SUBTITLE_MAX_BYTES): Promise<string | null> {
  const kind = subtitleKindOf(realPath);
  if (!kind) throw new AppError('bad_request', 'not a subtitle file (.vtt, .srt, .ass, .ssa)');
  if (kind === 'vtt') return null;
  return subtitleToVtt(kind, await translated(() => readCapped(realPath, maxBytes)));
}

/** Converts SRT or ASS/SSA bytes to WebVTT text; bad_request when they hold no readable subtitles. */
export function subtitleToVtt(kind: 'srt' | 'ass', data: Buffer): string {
  const text = decodeText(data);
  if (text.trim() === '') return writeVtt([]);
  if (kind === 'ass') {
    if (!looksLikeAss(text)) throw new AppError('bad_request', 'not an ASS/SSA subtitle file: no [Script Info] or [Events] section');
    // A file with sections but no dialogue is a valid, empty subtitle.
    return writeVtt(parseAss(text));
  }
  const cues = parseSrt(text);
  if (cues.length === 0) throw new AppError('bad_request', 'not an SRT subtitle file: no cue with a valid timing line');
  return writeVtt(cues);
}

/**
 * Text of a subtitle file with "\n" line endings: UTF-8 (with or without BOM), UTF-16 with a BOM,
 * else Windows-1252, the usual encoding of older Western SRT files. NUL characters mean binary data.
 */
export function decodeText(data: Buffer): string {
  const text = decodeBytes(data);
  if (text.includes('\0')) throw new AppError('bad_request', 'not a text subtitle file (binary data or an unmarked UTF-16 encoding)');
  return text.replace(/\r\n?/g, '\n');
}

function decodeBytes(data: Buffer): string {
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return decode('utf-8', data.subarray(3));
  if (data[0] === 0xff && data[1] === 0xfe) return decode('utf-16le', data.subarray(2));
  if (data[0] === 0xfe && data[1] === 0xff) return decode('utf-16be', data.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
}

function decode(encoding: string, data: Buffer): string {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(data);
  } catch {
    throw new AppError('bad_request', `subtitle file is not valid ${encoding}`);
  }
}

/** The file's bytes, refusing (413) more than `maxBytes` without reading past the cap. */
async function readCapped(realPath: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(realPath, 'r');
  try {
    const size = (await handle.stat()).size;
    if (size > maxBytes) throw new AppError('too_large', `subtitle file is over ${maxBytes} bytes`);
    // One byte more than the cap, in case the file grows while it is read.
    const buf = Buffer.alloc(size + 1);
    let length = 0;
    while (length < buf.length) {
      const { bytesRead } = await handle.read(buf, length, buf.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) throw new AppError('too_large', `subtitle file is over ${maxBytes} bytes`);
    return buf.subarray(0, length);
  } finally {
    await handle.close();
  }
}
