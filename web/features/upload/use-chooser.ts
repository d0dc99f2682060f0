import { useAtom, useSetAtom } from 'jotai';
import { useEffect, useRef, type ChangeEvent } from 'react';
import { uploadRequestedAtom } from '../../state/uploads';
import { entriesOfFiles } from './entries';
import { chooserOpenAtom, uploadAtom } from './state';

/** Whether the browser can pick whole folders (directory entries), so the prompt offers Folder. */
export function supportsFolders(): boolean {
  return 'webkitdirectory' in HTMLInputElement.prototype;
}

/**
 * The Upload button's flow (product.md §2): the File/Folder prompt where folders can be picked,
 * else the file picker at once; the picked files upload into `folder`.
 */
export function useChooser(folder: string | null) {
  const [requested, setRequested] = useAtom(uploadRequestedAtom);
  const setOpen = useSetAtom(chooserOpenAtom);
  const upload = useSetAtom(uploadAtom);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (folderInput.current) folderInput.current.webkitdirectory = true;
  }, []);

  // The button's click is a moment ago, so the picker may still open (user activation).
  useEffect(() => {
    if (!requested) return;
    setRequested(false);
    if (supportsFolders()) setOpen(true);
    else fileInput.current?.click();
  }, [requested, setRequested, setOpen]);

  const pick = (kind: 'file' | 'folder'): void => {
    setOpen(false);
    (kind === 'file' ? fileInput : folderInput).current?.click();
  };

  const onChange = (event: ChangeEvent<HTMLInputElement>): void => {
    const input = event.currentTarget;
    const entries = entriesOfFiles(input.files ?? []);
    // Cleared, so picking the same file again is a change too.
    input.value = '';
    if (folder !== null) void upload({ entries, dest: folder });
  };

  return { fileInput, folderInput, pick, onChange };
}
