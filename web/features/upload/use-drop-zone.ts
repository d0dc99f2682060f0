import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { dropEntries } from './drop-entries';
import { uploadAtom } from './state';

/** Where a drop would go: the folder, and the folder item under the pointer when it is one. */
export interface DropZone {
  dest: string;
  item: HTMLElement | null;
}

const ITEM_MARK = 'uploadTarget';
const MAIN_MARK = 'uploadDrop';

/** A drag of files from the desktop (a drag of listing items carries no 'Files'). */
function isFileDrag(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes('Files') ?? false;
}

/**
 * product.md §2: a drop on a folder item goes into that folder, unless the folder is selected
 * (then nowhere); anywhere else in the page's main area it goes into the folder on screen.
 */
export function zoneOf(target: EventTarget | null, folder: string): DropZone | null {
  if (!(target instanceof Element)) return null;
  const option = target.closest<HTMLElement>('[role="listbox"] [role="option"][data-path]');
  const path = option?.dataset.path ?? '';
  if (option && path.endsWith('/')) return option.getAttribute('aria-selected') === 'true' ? null : { dest: path, item: option };
  return target.closest('#main') ? { dest: folder, item: null } : null;
}

function mark(zone: DropZone | null): void {
  document.querySelectorAll<HTMLElement>(`[data-upload-target]`).forEach((el) => {
    if (el !== zone?.item) delete el.dataset[ITEM_MARK];
  });
  if (zone?.item) zone.item.dataset[ITEM_MARK] = '';
  const main = document.getElementById('main');
  if (main && zone && !zone.item) main.dataset[MAIN_MARK] = '';
  else if (main) delete main.dataset[MAIN_MARK];
}

/**
 * Uploads files and folders dropped from the desktop (product.md §2) while `folder` is on screen;
 * the zone under the pointer is marked (the main area or the folder item) and returned for a hint.
 */
export function useDropZone(folder: string | null): DropZone | null {
  const upload = useSetAtom(uploadAtom);
  const [zone, setZone] = useState<DropZone | null>(null);
  useEffect(() => {
    if (folder === null) return undefined;
    const show = (next: DropZone | null): void => {
      mark(next);
      setZone((z) => (z?.dest === next?.dest && z?.item === next?.item ? z : next));
    };
    const over = (event: DragEvent): void => {
      if (!isFileDrag(event) || !event.dataTransfer) return;
      // Always handled: a file dropped where no upload goes must not open in the tab.
      event.preventDefault();
      const next = zoneOf(event.target, folder);
      event.dataTransfer.dropEffect = next ? 'copy' : 'none';
      show(next);
    };
    const leave = (event: DragEvent): void => {
      if (isFileDrag(event) && event.relatedTarget === null) show(null);
    };
    const drop = (event: DragEvent): void => {
      if (!isFileDrag(event) || !event.dataTransfer) return;
      event.preventDefault();
      const next = zoneOf(event.target, folder);
      show(null);
      if (!next) return;
      const read = dropEntries(event.dataTransfer);
      void read().then((entries) => upload({ entries, dest: next.dest }));
    };
    document.addEventListener('dragover', over);
    document.addEventListener('dragleave', leave);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragover', over);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('drop', drop);
      mark(null);
    };
  }, [folder, upload]);
  return zone;
}
