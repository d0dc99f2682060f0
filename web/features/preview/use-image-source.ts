import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { apiUrl, fetchBytes } from '../../api/http';
import type { FileInfo } from '../../api/types';
import { configAtom } from '../../state/config';
import { isTiffLike } from './neighbours';
import { imagePath } from './sources';
import { fullSizeAtom } from './state';

export interface ImageSource {
  src?: string;
  failed: boolean;
}

/** TIFF starts with II*\0 (little-endian) or MM\0* (big-endian). */
function isTiff(bytes: ArrayBuffer): boolean {
  const head = new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength));
  const tag = String.fromCharCode(...head);
  return tag === 'II*\0' || tag === 'MM\0*';
}

/**
 * The picture of a TIFF-like file as an object URL (revoked when no longer shown): TIFF bytes are
 * decoded with utif2, anything else (the server's big preview may come as PNG) is shown as it is.
 */
async function pictureOf(path: string): Promise<Blob> {
  const bytes = await fetchBytes(path);
  if (!isTiff(bytes)) return new Blob([bytes]);
  // utif2 is a chunk of its own, fetched only for these files.
  const { decodeTiff } = await import('./tiff');
  return decodeTiff(bytes);
}

function useDecoded(path: string, enabled: boolean): ImageSource & { path: string } {
  const [decoded, setDecoded] = useState<ImageSource & { path: string }>({ path: '', failed: false });
  useEffect(() => {
    if (!enabled) return undefined;
    let live = true;
    let url: string | undefined;
    pictureOf(path).then((blob) => {
      if (!live) return;
      url = URL.createObjectURL(blob);
      setDecoded({ path, src: url, failed: false });
    }, () => live && setDecoded({ path, failed: true }));
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path, enabled]);
  return decoded;
}

/** The URL the image viewer shows for `file`: the big preview or the original, decoded when needed. */
export function useImageSource(file: FileInfo): ImageSource {
  const full = useAtomValue(fullSizeAtom);
  const resize = useAtomValue(configAtom).ResizePreview;
  const path = imagePath(file, full, resize);
  const tiff = isTiffLike(file.name);
  const decoded = useDecoded(path, tiff);
  if (!tiff) return { src: apiUrl(path), failed: false };
  return decoded.path === path ? decoded : { failed: false };
}
