import { atom } from 'jotai';
import { updateUser } from '../../api/users';
import { renewAtom, userAtom } from '../../state/session';

export interface ProfileChoices {
  locale: string;
  hideDotfiles: boolean;
  singleClick: boolean;
  dateFormat: boolean;
}

/** Saves the profile choices, then renews the token so the UI (language...) follows them. */
export const saveProfileAtom = atom(null, async (get, set, choices: ProfileChoices) => {
  const user = get(userAtom);
  if (!user) return;
  await updateUser(user.id, ['locale', 'hideDotfiles', 'singleClick', 'dateFormat'], choices);
  await set(renewAtom);
});
