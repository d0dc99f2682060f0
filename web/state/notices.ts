import { atom } from 'jotai';
import type { NoticeText } from '../lib/notice';

/** Success notices disappear after a second; errors stay until closed (product.md §8, §9). */
export const SUCCESS_MS = 1000;
/** At most this many notices at once: the oldest goes first. */
const MAX_NOTICES = 5;

/** 'progress': a running operation (an indeterminate wheel) until its caller dismisses it. */
export type NoticeKind = 'success' | 'error' | 'progress';

export interface Notice {
  id: number;
  kind: NoticeKind;
  message: NoticeText;
}

let nextId = 1;

/** The notices on screen, oldest first. */
export const noticesAtom = atom<readonly Notice[]>([]);

/** Closes one notice. */
export const dismissNoticeAtom = atom(null, (get, set, id: number) => {
  set(noticesAtom, get(noticesAtom).filter((n) => n.id !== id));
});

/** Shows a notice; a success closes itself after SUCCESS_MS; a new error replaces the one before. */
export const notifyAtom = atom(null, (get, set, notice: { kind: NoticeKind; message: NoticeText }) => {
  const id = nextId++;
  const kept = notice.kind === 'error' ? get(noticesAtom).filter((n) => n.kind !== 'error') : get(noticesAtom);
  set(noticesAtom, [...kept, { id, ...notice }].slice(-MAX_NOTICES));
  if (notice.kind === 'success') setTimeout(() => set(dismissNoticeAtom, id), SUCCESS_MS);
});

/** Shows a progress notice (a running operation) and returns its id, for dismissNoticeAtom when it ends. */
export const progressNoticeAtom = atom(null, (get, set, message: NoticeText): number => {
  const id = nextId++;
  set(noticesAtom, [...get(noticesAtom), { id, kind: 'progress' as const, message }].slice(-MAX_NOTICES));
  return id;
});
