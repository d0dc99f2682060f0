import { atom, type Atom } from 'jotai';
import type { UserInput, UserView } from '@contract/user';
import { getSettings } from '../../api/settings';
import { DEFAULT_LOCALE, findLocale } from '../../i18n/locales';
import { createUser, deleteUser, getUser, listUsers, updateUser } from '../../api/users';
import { renewAtom, userAtom } from '../../state/session';

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
export type EditedUser = UserInput & Pick<UserView, 'username' | 'scope' | 'locale' | 'perm' | 'lockPassword'>;

async function loadEdited(id: string): Promise<EditedUser> {
  const user: EditedUser = id === 'new'
    ? { ...(await getSettings()).defaults, username: '', password: '', lockPassword: false, rules: [] }
    : { ...(await getUser(Number(id))), password: '' };
  // A stored locale outside the table (older data, '') shows and saves as the default language.
  return { ...user, locale: findLocale(user.locale)?.code ?? DEFAULT_LOCALE };
}

const edited = new Map<string, Atom<Promise<EditedUser>>>();

/** The (cached per id) atom loading the user form's starting values. */
export function editedUserAtom(id: string): Atom<Promise<EditedUser>> {
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

export interface SaveUser {
  id: string;
  data: EditedUser;
  currentPassword: string;
}

/**
 * Creates ('new') or replaces the whole record of a user; resolves with its id. Saving oneself
 * renews the token so the UI follows the new permissions and language (product.md §4).
 */
export const saveUserAtom = atom(null, async (get, set, { id, data, currentPassword }: SaveUser) => {
  const savedId = id === 'new'
    ? await createUser(data, currentPassword)
    : (await updateUser({ id: Number(id), which: ['all'], data, currentPassword }), Number(id));
  set(usersVersionAtom, (v) => v + 1);
  set(savedVersionAtom, (v) => v + 1);
  if (get(userAtom)?.id === savedId) await set(renewAtom);
  return savedId;
});

/** Deletes a user, confirmed with the caller's own password. */
export const deleteUserAtom = atom(null, async (_get, set, { id, currentPassword }: { id: number; currentPassword: string }) => {
  await deleteUser(id, currentPassword);
  edited.delete(String(id));
  set(usersVersionAtom, (v) => v + 1);
});
