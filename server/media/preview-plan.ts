import { extname } from 'node:path';
import type { OutputFormat } from './render';

/**
 * Which files get a generated preview, and in which format, decided by extension as api.md §3.12
 * does (the caller has already found the file to be an image). `undefined` means: serve the
 * original file unchanged.
 */
export type PreviewSize = 'thumb' | 'big';

/** The two preview sizes of the API, in the order the cache invalidates them. */
export const PREVIEW_SIZES: readonly PreviewSize[] = ['thumb', 'big'];

/** Image kinds recognised by extension (case-insensitive). */
export type ImageKind = 'jpeg' | 'png' | 'gif' | 'tiff' | 'bmp' | 'webp' | 'avif';

const KINDS: Record<string, ImageKind> = {
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.png': 'png',
  '.gif': 'gif',
  '.tif': 'tiff',
  '.tiff': 'tiff',
  '.bmp': 'bmp',
  '.webp': 'webp',
  '.avif': 'avif',
};

/**
 * The `big` output per kind. Decisions beyond upstream, each because a browser must show it:
 * - gif: the original, as upstream (§3.12): re-encoding would keep only the first frame.
 * - tiff -> png: only Safari displays TIFF, so a TIFF re-encoded as TIFF would be a blank preview.
 * - bmp -> png: libvips cannot write BMP, and PNG is lossless and far smaller.
 * - webp: resized, as libvips decodes and encodes it quickly.
 * - avif: the original: AVIF is already compact, and encoding it takes seconds per image.
 * HEIC/HEIF is not listed: this libvips reads only the AVIF flavour of HEIF (no HEVC decoder).
 */
const BIG: Record<ImageKind, OutputFormat | undefined> = {
  jpeg: 'jpeg',
  png: 'png',
  gif: undefined,
  tiff: 'png',
  bmp: 'png',
  webp: 'webp',
  avif: undefined,
};

/** The image kind a file name announces, or undefined for anything else (`.mov`, `.svg`, `.heic`). */
export function imageKindOf(name: string): ImageKind | undefined {
  return KINDS[extname(name).toLowerCase()];
}

/** The output format of the preview of `name` at `size`, or undefined to serve the original. */
export function previewFormat(name: string, size: PreviewSize): OutputFormat | undefined {
  const kind = imageKindOf(name);
  if (!kind) return undefined;
  // Thumbnails are JPEG whatever the source (api.md §12), except gif whose animation is kept.
  if (size === 'thumb') return kind === 'gif' ? undefined : 'jpeg';
  return BIG[kind];
}

/** True when a value from the URL is one of the preview sizes. */
export function isPreviewSize(value: string): value is PreviewSize {
  return (PREVIEW_SIZES as readonly string[]).includes(value);
}
