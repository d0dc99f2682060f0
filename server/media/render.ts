import type { Sharp } from 'sharp';
import { AppError, isAppError } from '../errors';
import { loadSharp, type SharpModule } from '../lib/sharp-loader';
import type { RawImage } from './bmp';

/** Formats a preview can be encoded in (libvips writes no BMP). */
export type OutputFormat = 'jpeg' | 'png' | 'gif' | 'tiff' | 'webp';

/** An image to render: a file libvips decodes, or pixels decoded by our own code (BMP). */
export type ImageSource = { kind: 'file'; path: string } | { kind: 'raw'; image: RawImage };

/** How to render: `cover` fills the box and crops the centre, `inside` fits and never enlarges. */
export interface RenderSpec {
  fit: 'cover' | 'inside';
  width: number;
  height: number;
  format: OutputFormat;
  /** Width or height above this is refused with 413 before any pixel is decoded. */
  maxDimension: number;
  /** Processing stops with an error after this many seconds. */
  timeoutSeconds: number;
}

/** An encoded preview and the dimensions of the result. */
export interface Rendered {
  data: Buffer;
  width: number;
  height: number;
  contentType: string;
}

/** What libvips may decode for a preview: never SVG, PDF or libvips' own formats from a file. */
const DECODABLE = new Set(['jpeg', 'png', 'gif', 'tiff', 'webp', 'heif']);

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  tiff: 'image/tiff',
  webp: 'image/webp',
};

let configured: Promise<SharpModule> | undefined;

/** sharp, with libvips' operation cache off: it keys file loads by name, so an overwritten file
 * could be served from the old decode, and it would hold memory between requests. */
export function imageLibrary(): Promise<SharpModule> {
  configured ??= loadSharp().then((sharp) => {
    sharp.cache(false);
    return sharp;
  });
  return configured;
}

/** Decodes `source` (header first: size limit before pixels), orients, resizes and encodes it. */
export async function renderImage(source: ImageSource, spec: RenderSpec): Promise<Rendered> {
  const sharp = await imageLibrary();
  try {
    const image = open(sharp, source, spec);
    await checkHeader(image, source, spec.maxDimension);
    const pipeline = image
      .autoOrient()
      .resize(spec.width, spec.height, { fit: spec.fit, position: 'centre', withoutEnlargement: spec.fit === 'inside' });
    // JPEG has no alpha: composite transparent areas on white rather than libvips' black.
    if (spec.format === 'jpeg') pipeline.flatten({ background: '#ffffff' });
    const { data, info } = await encode(pipeline, spec.format).timeout({ seconds: spec.timeoutSeconds }).toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, contentType: CONTENT_TYPES[spec.format] };
  } catch (err) {
    throw decodeError(err);
  }
}

/** Applies an EXIF orientation (2..8) to an embedded thumbnail, which carries no tag of its own. */
export async function orientJpeg(jpeg: Buffer, orientation: number, timeoutSeconds: number): Promise<Buffer> {
  const sharp = await imageLibrary();
  try {
    const image = sharp(jpeg, { failOn: 'truncated' });
    // The transform libvips' autorot applies for each tag value (flip/flop run before rotate).
    const [angle, flop, flip] = ORIENTATIONS[orientation] ?? [0, false, false];
    if (angle) image.rotate(angle);
    if (flop) image.flop();
    if (flip) image.flip();
    return await image.jpeg({ quality: 85 }).timeout({ seconds: timeoutSeconds }).toBuffer();
  } catch (err) {
    throw decodeError(err);
  }
}

const ORIENTATIONS: Record<number, [number, boolean, boolean]> = {
  2: [0, true, false],
  3: [180, false, false],
  4: [0, false, true],
  5: [90, false, true],
  6: [90, false, false],
  7: [90, true, false],
  8: [270, false, false],
};

function open(sharp: SharpModule, source: ImageSource, spec: RenderSpec): Sharp {
  // limitInputPixels is libvips' own guard; checkHeader() refuses earlier with a clearer 413.
  const limitInputPixels = spec.maxDimension * spec.maxDimension;
  if (source.kind === 'raw') {
    const { data, width, height, channels } = source.image;
    return sharp(data, { raw: { width, height, channels }, limitInputPixels });
  }
  // failOn 'truncated': a cut-off file is an error, not a preview with a grey remainder, while
  // mere decoder warnings, common in files from cameras and old tools, still give a preview.
  return sharp(source.path, { limitInputPixels, failOn: 'truncated', sequentialRead: true });
}

async function checkHeader(image: Sharp, source: ImageSource, maxDimension: number): Promise<void> {
  if (source.kind === 'raw') return;
  // metadata() parses the header only; no pixel is decoded yet.
  const meta = await image.metadata();
  if (!DECODABLE.has(meta.format)) {
    throw new AppError('unsupported_media_type', `cannot preview ${meta.format} images`);
  }
  if (meta.width > maxDimension || meta.height > maxDimension) {
    throw new AppError('too_large', `image is ${meta.width}x${meta.height}, over ${maxDimension}`);
  }
}

function encode(pipeline: Sharp, format: OutputFormat): Sharp {
  switch (format) {
    case 'jpeg':
      return pipeline.jpeg({ quality: 85 });
    case 'png':
      return pipeline.png();
    case 'gif':
      return pipeline.gif();
    case 'tiff':
      return pipeline.tiff();
    case 'webp':
      return pipeline.webp({ quality: 85 });
  }
}

/** Maps a libvips failure to an AppError: the file is too big, missing, or cannot be decoded. */
function decodeError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) return new AppError('too_large', message);
  if (/^timeout/i.test(message)) return new AppError('too_large', 'image took too long to process');
  if (/input file is missing/i.test(message)) return new AppError('not_found', message);
  return new AppError('unsupported_media_type', `cannot decode image: ${message.split('\n')[0] ?? ''}`);
}
