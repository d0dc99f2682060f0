import { useAtomValue } from 'jotai';
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { apiUrl } from '../../api/http';
import type { FileInfo } from '../../api/types';
import { configAtom } from '../../state/config';
import { inertOutside } from './inert-outside';
import { isTiffLike, type Neighbours } from './neighbours';
import { PreviewBar, PreviewNav } from './preview-bar';
import { imagePath, prefetchImage } from './sources';
import { fullSizeAtom } from './state';
import { usePreviewActions } from './use-preview-actions';
import { useNavVisibility } from './use-nav-visibility';
import { usePreviewKeys } from './use-preview-keys';
import { Viewer } from './viewer';

/**
 * The preview covers the whole window from inside `main` (ui.md: the page's content is in the
 * main landmark); the page around it (header, sidebar, files bar) is made inert meanwhile, so Tab
 * and screen readers stay in the preview.
 */
function useInertBehind(preview: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const frame = preview.current?.closest('.layout');
    const undo = frame && preview.current ? inertOutside(preview.current, frame) : undefined;
    preview.current?.focus();
    return undo;
  }, [preview]);
}

/** The neighbours' big previews load ahead, so Previous and Next show their picture at once. */
function usePrefetch({ previous, next }: Neighbours): void {
  const full = useAtomValue(fullSizeAtom);
  const resize = useAtomValue(configAtom).ResizePreview;
  useEffect(() => {
    for (const item of [next, previous]) {
      if (item?.type === 'image' && !isTiffLike(item.name)) prefetchImage(apiUrl(imagePath(item, full, resize)));
    }
  }, [previous, next, full, resize]);
}

/** The preview page of a file that is neither a folder nor text (product.md §2 'Preview page'). */
export function PreviewPage({ file }: { file: FileInfo }) {
  const actions = usePreviewActions(file);
  usePreviewKeys(actions);
  usePrefetch(actions.neighbours);
  const nav = useNavVisibility();
  const preview = useRef<HTMLDivElement>(null);
  useInertBehind(preview);
  // In place, inside the files screen and so inside `main`; fixed, it still covers the window.
  return (
    <div ref={preview} className="preview" tabIndex={-1} onPointerMove={nav.onActivity} onPointerDown={nav.onActivity}>
      <PreviewBar file={file} actions={actions} />
      <div className="preview-body">
        <Viewer key={file.path} file={file} canDownload={actions.can.download} onDownload={actions.download} />
        <PreviewNav actions={actions} shown={nav.shown} />
      </div>
    </div>
  );
}
