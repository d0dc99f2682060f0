import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useState, type DragEvent } from 'react';
import { failureText } from '../../lib/notice';
import { abilitiesAtom } from '../../state/abilities';
import { transferAtom } from '../../state/file-ops';
import { itemPath, itemsAtom, selectedAtom, targetOf } from '../../state/listing';
import { notifyAtom } from '../../state/notices';

// Marks a drag that started in the listing (a drag of files from the desktop has none).
const DRAG_TYPE = 'application/x-filemgr-items';

/**
 * Drag to move (product.md §2, §5): the selected items (or the one grabbed) dim while dragged and
 * can be dropped on a folder that is not one of them; conflicts ask replace-or-rename.
 */
export function useDragMove() {
  const items = useAtomValue(itemsAtom);
  const [selected, setSelected] = useAtom(selectedAtom);
  const canMove = useAtomValue(abilitiesAtom).move;
  const transfer = useSetAtom(transferAtom);
  const notify = useSetAtom(notifyAtom);
  const [dragged, setDragged] = useState<ReadonlySet<string> | null>(null);
  const [target, setTarget] = useState<number | null>(null);

  const reset = (): void => {
    setDragged(null);
    setTarget(null);
  };

  const accepts = (index: number): boolean => {
    const item = items[index];
    return dragged !== null && item !== undefined && item.isDir && !dragged.has(item.name);
  };

  const onDragStart = (index: number, event: DragEvent): void => {
    const name = items[index]?.name;
    if (!canMove || name === undefined) return;
    const names = selected.has(name) ? selected : new Set([name]);
    if (!selected.has(name)) setSelected(names);
    setDragged(names);
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData(DRAG_TYPE, [...names].join('\n'));
  };

  const onDragOver = (index: number, event: DragEvent): void => {
    if (!accepts(index)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setTarget(index);
  };

  const onDragLeave = (index: number): void => setTarget((t) => (t === index ? null : t));

  const onDrop = (index: number, event: DragEvent): void => {
    const dest = items[index];
    const names = dragged;
    if (!accepts(index) || !dest || !names) return;
    event.preventDefault();
    reset();
    const moving = items.filter((item) => names.has(item.name)).map(targetOf);
    transfer({ transfer: { action: 'rename', items: moving, dest: itemPath(dest) } }).catch((error: unknown) => {
      notify({ kind: 'error', message: failureText(error, true) });
    });
  };

  return { dragged, target, canMove, handlers: { onDragStart, onDragEnd: reset, onDragOver, onDragLeave, onDrop } };
}
