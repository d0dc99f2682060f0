import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { apiUrl } from '../../api/http';
import { getBytes } from '../../api/raw';
import type { FileInfo } from '../../api/types';
import { configAtom } from '../../state/config';
import { isTiffLike } from './neighbours';
import { imagePath } from './sources';
import { fullSizeAtom } from './state';

export interface ImageSource {
  src?: string;
  failed: boolean;
}

/** A TIFF-like file decoded in the browser into an object URL, revoked when no longer shown. */
function useDecoded(path: string, enabled: boolean): ImageSource & { path: string } {
  const [decoded, setDecoded] = useState<ImageSource & { path: string }>({ path: '', failed: false });
  useEffect(() => {
    if (!enabled) return undefined;
    let live = true;
    let url: string | undefined;
    const run = async (): Promise<void> => {
      // utif2 is a chunk of its own, fetched only for these files.
      const [{ decodeTiff }, bytes] = await Promise.all([import('./tiff'), getBytes(path)]);
      const blob = await decodeTiff(bytes);
      if (!live) return;
      url = URL.createObjectURL(blob);
      setDecoded({ path, src: url, failed: false });
    };
    run().catch(() => live && setDecoded({ path, failed: true }));
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
