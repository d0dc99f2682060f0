import { atom, type Atom } from 'jotai';
import type { UserInput, UserView } from '@contract/user';
import { getSettings } from '../../api/settings';
import { DEFAULT_LOCALE, findLocale } from '../../i18n/locales';
import { createUser, deleteUser, getUser, listUsers, updateUser } from '../../api/users';
import { renewAtom, signOutAtom, userAtom } from '../../state/session';
import { reloadOnDirectionChange, signInAgainAtom } from './state';

// Bumped after a change: the list reloads; edit forms reload their user only after a save, so
// a deleted user's page is never fetched again while it is being left.
const usersVersionAtom = atom(0);
const savedVersionAtom = atom(0);

/** Every user, for the user list (admin). */
export const usersAtom = atom(async (get) => {
  get(usersVersionAtom);
  return listUsers();
});

/** The user being edited: a stored one by id, or for 'new' the defaults of the settings. */
export type EditedUser = UserInput & Pick<UserView, 'username' | 'scope' | 'locale' | 'perm' | 'lockPassword' | 'commands' | 'rules'>;

export interface EditStart {
  user: EditedUser;
  /** New users only: home folders are on, so "Create a home folder" is offered (and ticked). */
  offerHome: boolean;
  /** The shortest password the server takes (settings.minimumPasswordLength, in bytes). */
  minPassword: number;
}

async function loadEdited(id: string): Promise<EditStart> {
  let start: EditStart;
  const settings = await getSettings();
  const minPassword = settings.minimumPasswordLength;
  if (id === 'new') {
    start = { user: { ...settings.defaults, username: '', password: '', lockPassword: false, rules: [] }, offerHome: settings.createUserDir, minPassword };
  } else {
    start = { user: { ...(await getUser(Number(id))), password: '' }, offerHome: false, minPassword };
  }
  // A stored locale outside the table (older data, '') shows and saves as the default language.
  return { ...start, user: { ...start.user, locale: findLocale(start.user.locale)?.code ?? DEFAULT_LOCALE } };
}

const edited = new Map<string, Atom<Promise<EditStart>>>();

/** The (cached per id) atom loading the user form's starting values. */
export function editedUserAtom(id: string): Atom<Promise<EditStart>> {
  let found = edited.get(id);
  if (!found) {
    found = atom(async (get) => {
      get(savedVersionAtom);
      return loadEdited(id);
    });
    edited.set(id, found);
  }
  return found;
}

/**
 * Forgets the starting values of a form that is being left, so that the next visit loads them
 * afresh: the stored user, or for 'new' the defaults as they are then.
 */
export function forgetEditedUser(id: string): void {
  edited.delete(id);
}

export interface SaveUser {
  id: string;
  data: EditedUser;
  currentPassword: string;
}

/**
 * Creates ('new') or replaces the whole record of a user; resolves with its id. Saving oneself
 * keeps the session going (product.md §4): a new password ends the old tokens, so that case
 * signs in again; otherwise the token is renewed so the UI follows permissions and language.
 */
export const saveUserAtom = atom(null, async (get, set, { id, data, currentPassword }: SaveUser) => {
  const savedId = id === 'new'
    ? await createUser(data, currentPassword)
    : (await updateUser({ id: Number(id), which: ['all'], data, currentPassword }), Number(id));
  set(usersVersionAtom, (v) => v + 1);
  set(savedVersionAtom, (v) => v + 1);
  const self = get(userAtom);
  if (self?.id !== savedId) return savedId;
  if (data.password) await set(signInAgainAtom, { username: data.username, password: data.password });
  else await set(renewAtom);
  reloadOnDirectionChange(self.locale, data.locale);
  return savedId;
});

/** Deletes a user, confirmed with the caller's own password; deleting oneself signs out. */
export const deleteUserAtom = atom(null, async (get, set, { id, currentPassword }: { id: number; currentPassword: string }) => {
  await deleteUser(id, currentPassword);
  edited.delete(String(id));
  set(usersVersionAtom, (v) => v + 1);
  if (get(userAtom)?.id === id) set(signOutAtom);
});
