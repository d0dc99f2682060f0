import { atom } from 'jotai';

/**
 * Set by the header's Upload button; the upload feature (mounted apart from the listing, features
 * never import each other) opens its File/Folder prompt or the file picker and clears it.
 */
export const uploadRequestedAtom = atom(false);
