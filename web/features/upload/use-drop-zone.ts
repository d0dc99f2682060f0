import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { dropEntries } from './drop-entries';
import type { Entry } from './entries';
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

/** The document's drag listeners for `folder` (null: no folder on screen, so nothing takes a drop). */
function listeners(folder: string | null, show: (zone: DropZone | null) => void, onDrop: (read: () => Promise<Entry[]>, dest: string) => void) {
  // dragenter and dragleave come in pairs for every element crossed: the drag has left the page
  // when they balance (relatedTarget is not reliable for drags).
  let depth = 0;
  const zoneAt = (event: DragEvent): DropZone | null => (folder === null ? null : zoneOf(event.target, folder));
  return {
    dragenter: (event: DragEvent): void => {
      if (isFileDrag(event)) depth += 1;
    },
    dragover: (event: DragEvent): void => {
      if (!isFileDrag(event) || !event.dataTransfer) return;
      // Always handled: a file dropped where no upload goes must not open in the tab instead.
      event.preventDefault();
      const next = zoneAt(event);
      event.dataTransfer.dropEffect = next ? 'copy' : 'none';
      show(next);
    },
    dragleave: (event: DragEvent): void => {
      if (!isFileDrag(event)) return;
      depth -= 1;
      if (depth <= 0) show(null);
    },
    drop: (event: DragEvent): void => {
      if (!isFileDrag(event) || !event.dataTransfer) return;
      event.preventDefault();
      depth = 0;
      const next = zoneAt(event);
      show(null);
      if (next) onDrop(dropEntries(event.dataTransfer), next.dest);
    },
  };
}

/**
 * Uploads files and folders dropped from the desktop (product.md §2) while `folder` is on screen;
 * the zone under the pointer is marked (the main area or the folder item) and returned for a hint.
 */
export function useDropZone(folder: string | null): DropZone | null {
  const upload = useSetAtom(uploadAtom);
  const [zone, setZone] = useState<DropZone | null>(null);
  useEffect(() => {
    const show = (next: DropZone | null): void => {
      mark(next);
      setZone((z) => (z?.dest === next?.dest && z?.item === next?.item ? z : next));
    };
    const handlers = listeners(folder, show, (read, dest) => {
      void read().then((entries) => upload({ entries, dest }));
    });
    const names = Object.keys(handlers) as (keyof typeof handlers)[];
    for (const name of names) document.addEventListener(name, handlers[name]);
    return () => {
      for (const name of names) document.removeEventListener(name, handlers[name]);
      mark(null);
    };
  }, [folder, upload]);
  return zone;
}
