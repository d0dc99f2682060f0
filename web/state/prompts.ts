import { atom } from 'jotai';
import type { Target } from './listing';

/** A copy or move waiting for an answer about names that already exist at the destination. */
export interface Transfer {
  action: 'copy' | 'rename';
  items: readonly Target[];
  /** The destination folder, ending with `/`. */
  dest: string;
  /** A cut-and-paste: the clipboard empties once the move is done. */
  fromClipboard?: boolean;
  /** Chosen in the Move/Copy prompt: the user's "redirect after copy/move" setting applies. */
  fromPicker?: boolean;
}

/** The modal card on screen (product.md §2 'Prompts'). */
export type Prompt =
  | { kind: 'help' }
  | { kind: 'newDir' }
  | { kind: 'newFile' }
  /** `onDone` runs after a successful delete (the preview then moves on instead of reloading). */
  | { kind: 'delete'; items: readonly Target[]; onDone?: () => void }
  /** `onDone` gets the new user path after a rename (the preview navigates to it). */
  | { kind: 'rename'; item: Target; onDone?: (path: string) => void }
  | { kind: 'move' | 'copy'; items: readonly Target[] }
  | { kind: 'download'; items: readonly Target[] }
  | { kind: 'info'; items: readonly Target[] }
  | { kind: 'share'; item: Target }
  | { kind: 'shareDelete'; item: Target; hash: string }
  | { kind: 'replaceRename'; transfer: Transfer }
  | { kind: 'extract'; item: Target };

export const promptAtom = atom<Prompt | null>(null);

export const showPromptAtom = atom(null, (_get, set, prompt: Prompt) => set(promptAtom, prompt));

export const closePromptAtom = atom(null, (_get, set) => set(promptAtom, null));
