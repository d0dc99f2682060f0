import type { FileHandle } from 'node:fs/promises';
import { mimeTypes } from '../fs/mime';
import { extensionOf } from '../fs/paths';
import { isBinary, isMpegTs, readHandleHead, sniffMime } from '../fs/sniff';

const TEXT = 'text/plain; charset=utf-8';
const BINARY = 'application/octet-stream';

/** What the first bytes prove: a media signature, else text or binary (Go's DetectContentType). */
function sniffed(head: Buffer): string {
  return sniffMime(head) ?? (isBinary(head) ? BINARY : TEXT);
}

/**
 * The Content-Type of a file served inline (api.md §3.11): the real MIME type of its extension
 * (with a charset for text), else sniffed from its first 512 bytes. `.ts` is a video only when
 * the content is an MPEG transport stream (api.md §14); otherwise it is TypeScript text.
 */
export async function inlineContentType(name: string, fh: FileHandle): Promise<string> {
  const ext = extensionOf(name).toLowerCase();
  if (ext === '.ts') return isMpegTs(await readHandleHead(fh)) ? 'video/mp2t' : TEXT;
  const byName = ext === '' ? false : mimeTypes().contentType(ext);
  return byName === false ? sniffed(await readHandleHead(fh)) : byName;
}
