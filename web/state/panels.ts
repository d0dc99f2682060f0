import { atom } from 'jotai';

/** The search overlay of the files screen (product.md §2), opened by the Search button or Ctrl+F. */
export const searchOpenAtom = atom(false);

/** The shell panel of the files screen, shown by "Toggle shell" (exec enabled and permitted). */
export const shellOpenAtom = atom(false);
