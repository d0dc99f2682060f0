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
  await updateUser({ id: user.id, which: ['locale', 'hideDotfiles', 'singleClick', 'dateFormat'], data: choices });
  await set(renewAtom);
});
