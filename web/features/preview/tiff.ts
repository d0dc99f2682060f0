// Decodes TIFF and TIFF-based camera raws (dng, cr2, nef) in the browser. This module is loaded
// with import() only when such a file is shown, so utif2 is a chunk of its own.
import * as UTIF from 'utif2';

type Ifd = UTIF.IFD;

function numberTag(ifd: Ifd, tag: string): number {
  const value = ifd[tag];
  if (typeof value === 'number') return value;
  const first = Array.isArray(value) ? value[0] : undefined;
  return typeof first === 'number' ? first : 0;
}

/** The channels of a picture; a raw sensor plane (one channel) cannot be shown as it is. */
function channels(ifd: Ifd): number {
  const bits = ifd.t258;
  return Array.isArray(bits) ? bits.length : 1;
}

/**
 * The largest colour picture of the file: a camera raw holds a small thumbnail, a preview and the
 * sensor data in its main and sub directories; a plain TIFF has its image first.
 */
function largestPicture(ifds: Ifd[]): Ifd | undefined {
  const first = ifds[0];
  const sub = first ? (first.subIFD as unknown as Ifd[] | undefined) : undefined;
  const all = [...ifds, ...(Array.isArray(sub) ? sub : [])];
  let best: Ifd | undefined;
  let area = 0;
  for (const ifd of all) {
    const size = numberTag(ifd, 't256') * numberTag(ifd, 't257');
    if (channels(ifd) >= 3 && size > area) {
      best = ifd;
      area = size;
    }
  }
  return best ?? first;
}

function toPng(rgba: Uint8Array, width: number, height: number): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('no 2d canvas'));
  const pixels = new Uint8ClampedArray(width * height * 4);
  pixels.set(rgba.subarray(0, pixels.length));
  context.putImageData(new ImageData(pixels, width, height), 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no PNG'))), 'image/png'));
}

/** Decodes the file's largest colour picture into a PNG blob the <img> can show. */
export async function decodeTiff(buffer: ArrayBuffer): Promise<Blob> {
  const picture = largestPicture(UTIF.decode(buffer));
  if (!picture) throw new Error('no picture in the file');
  UTIF.decodeImage(buffer, picture);
  if (!picture.width || !picture.height) throw new Error('undecodable picture');
  return toPng(UTIF.toRGBA8(picture), picture.width, picture.height);
}
