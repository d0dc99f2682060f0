import { atom } from 'jotai';
import { HttpError } from '../../api/http';
import { getPublicShare } from '../../api/shares';
import type { PublicResource } from '../../api/types';
import type { UploadLinkInfo } from '@contract/share';
import { statusOf } from '../../lib/errors';

export interface ShareState {
  /** `<hash>:<path>` of the request this state answers. */
  key: string;
  status: 'loading' | 'password' | 'error' | 'ready' | 'upload';
  resource: PublicResource | null;
  /** An upload link (beyond.md §2): its folder's name, never its contents. */
  upload?: UploadLinkInfo;
  errorStatus: number;
  /** A non-empty password was sent and refused (product.md §2, Share page). */
  wrongPassword: boolean;
  /** The password card stays on screen while a password is checked. */
  checking?: boolean;
}

export const shareStateAtom = atom<ShareState>({ key: '', status: 'loading', resource: null, errorStatus: 0, wrongPassword: false });

/** The password typed for a share, kept while browsing inside it. */
const passwordAtom = atom({ hash: '', password: '' });

/** Fetches the shared item at `path`, with the password given for this share if any. */
export const loadShareAtom = atom(null, async (get, set, { hash, path }: { hash: string; path: string }) => {
  const key = `${hash}:${path}`;
  const saved = get(passwordAtom);
  const password = saved.hash === hash ? saved.password : '';
  const current = get(shareStateAtom);
  // A password typed into the card: the card (and what was typed) stays while it is checked.
  if (current.key === key && current.status === 'password') set(shareStateAtom, { ...current, checking: true });
  else set(shareStateAtom, { key, status: 'loading', resource: null, errorStatus: 0, wrongPassword: false });
  try {
    const answer = await getPublicShare(hash, path, password);
    if (get(shareStateAtom).key !== key) return;
    if ('kind' in answer) set(shareStateAtom, { key, status: 'upload', resource: null, upload: answer, errorStatus: 0, wrongPassword: false });
    else set(shareStateAtom, { key, status: 'ready', resource: answer, errorStatus: 0, wrongPassword: false });
  } catch (error) {
    if (get(shareStateAtom).key !== key) return;
    const needsPassword = error instanceof HttpError && error.status === 401;
    set(shareStateAtom, {
      key,
      status: needsPassword ? 'password' : 'error',
      resource: null,
      errorStatus: statusOf(error),
      wrongPassword: needsPassword && password !== '',
    });
  }
});

/** The names selected in the shared folder on screen. */
export const shareSelectedAtom = atom<ReadonlySet<string>>(new Set<string>());

/** The "Select multiple" mode: a click or tap toggles an item instead of selecting only it. */
export const shareMultipleAtom = atom(false);

/** Where the last click without Shift was: the other end of a Shift-click range. */
export const shareAnchorAtom = atom<number | null>(null);

/** Clears the selection (Esc, another folder). */
export const clearShareSelectionAtom = atom(null, (_get, set) => {
  set(shareSelectedAtom, new Set<string>());
  set(shareAnchorAtom, null);
});

/** Remembers the password for `hash` and fetches again. */
export const unlockShareAtom = atom(null, async (_get, set, input: { hash: string; path: string; password: string }) => {
  set(passwordAtom, { hash: input.hash, password: input.password });
  await set(loadShareAtom, input);
});
