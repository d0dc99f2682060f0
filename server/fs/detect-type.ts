import { classOfMime, isTextualApplication, mimeOfExtension } from './mime';
import { isBinary, isMpegTs, readHead, sniffMime } from './sniff';

/** The `type` of a FileInfo (api.md §4.3, §5.5; `stl`/`obj` from §14); '' for directories. */
export type FileType =
  | ''
  | 'video'
  | 'audio'
  | 'image'
  | 'pdf'
  | 'text'
  | 'textImmutable'
  | 'blob'
  | 'invalid_link'
  | 'stl'
  | 'obj';

/** api.md §12: files above 10 MiB are never `text`. */
export const TEXT_MAX_BYTES = 10 * 1024 * 1024;

export interface TypeQuery {
  /** The file's name (its extension decides first). */
  name: string;
  /** On-disk path, read only when the extension does not decide and sniffing is on. */
  real: string;
  size: number;
  isFifo: boolean;
  /** Whether the requester may modify: `text` versus `textImmutable`. */
  modify: boolean;
  /**
   * 'full': a single file, sniff whenever the extension leaves the class open (application/*);
   * 'unknown': a listing item, sniff only when the extension is unknown or `.ts`; 'off': never.
   */
  sniff: 'full' | 'unknown' | 'off';
}

function textOr(q: TypeQuery, binary: boolean): FileType {
  if (binary || q.size > TEXT_MAX_BYTES) return 'blob';
  return q.modify ? 'text' : 'textImmutable';
}

function fromClass(q: TypeQuery, mime: string): FileType | undefined {
  const cls = classOfMime(mime);
  if (cls === 'text') return textOr(q, false);
  return cls;
}

/** The content decides: a proven media signature, else the binary test of the first bytes. */
async function bySniffing(q: TypeQuery): Promise<FileType> {
  const head = await readHead(q.real);
  const sniffed = sniffMime(head);
  const media = sniffed === undefined ? undefined : classOfMime(sniffed);
  if (media && media !== 'text') return media;
  return textOr(q, isBinary(head));
}

/** `.ts` is video only when the content is an MPEG transport stream, else text (§14). */
async function typescriptOrStream(q: TypeQuery): Promise<FileType> {
  const head = await readHead(q.real);
  if (isMpegTs(head)) return 'video';
  return textOr(q, isBinary(head));
}

function extOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i < 0 ? '' : name.slice(i).toLowerCase();
}

/**
 * The §5.5 type of a non-directory entry when its name, size and kind decide it, without reading
 * the file; undefined when the first bytes must decide (see detectType).
 */
export function typeFromName(q: TypeQuery): FileType | undefined {
  if (q.isFifo) return 'blob';
  const ext = extOf(q.name);
  if (ext === '.stl') return 'stl';
  if (ext === '.obj') return 'obj';
  if (ext === '.ts') return q.sniff === 'off' ? textOr(q, false) : undefined;
  const mime = mimeOfExtension(q.name.slice(q.name.length - ext.length));
  const decided = mime === undefined ? undefined : fromClass(q, mime);
  if (decided) return decided;
  if (q.size === 0) return textOr(q, false);
  if (mime !== undefined && q.sniff !== 'full') return textOr(q, !isTextualApplication(mime));
  if (q.sniff === 'off') return textOr(q, false);
  return undefined;
}

/**
 * The §5.5 type of a non-directory entry. Reads at most 512 bytes, and only when the extension
 * does not decide, so listing a folder never reads every file.
 */
export async function detectType(q: TypeQuery): Promise<FileType> {
  const known = typeFromName(q);
  if (known !== undefined) return known;
  return extOf(q.name) === '.ts' ? typescriptOrStream(q) : bySniffing(q);
}
