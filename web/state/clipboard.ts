import { atom } from 'jotai';
import type { Target } from './listing';

/** product.md §3 'Clipboard': copied (c) or cut (x) items and the folder they came from. */
export interface Clipboard {
  key: 'c' | 'x';
  items: readonly Target[];
  path: string;
}

export const clipboardAtom = atom<Clipboard | null>(null);
