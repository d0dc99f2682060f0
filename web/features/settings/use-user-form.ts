import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { userEditPath } from '../../paths';
import { withPermission, type PermissionKey } from './permissions-fieldset';
import { saveUserAtom, type EditedUser, type EditStart } from './users-state';

/** The user edit form's values, starting from `start`, the rules of product.md §4 and saving. */
export function useUserForm(id: string, start: EditStart) {
  const save = useSetAtom(saveUserAtom);
  const [, navigate] = useLocation();
  const [user, setUser] = useState<EditedUser>(start.offerHome ? { ...start.user, scope: '' } : start.user);
  const [currentPassword, setCurrentPassword] = useState('');
  const [createHome, setCreateHomeState] = useState(start.offerHome);
  // The scope typed before "Create a home folder" was ticked, restored when it is unticked.
  const [typedScope, setTypedScope] = useState(start.offerHome ? start.user.scope : '');
  const isNew = id === 'new';

  const setField = <K extends keyof EditedUser>(key: K, value: EditedUser[K]): void =>
    setUser((u) => ({ ...u, [key]: value }));

  // Ticking administrator grants every permission and unlocks the password (product.md §4).
  const setPermission = (key: PermissionKey, on: boolean): void =>
    setUser((u) => ({ ...u, perm: withPermission(u.perm, key, on), lockPassword: key === 'admin' && on ? false : u.lockPassword }));

  const setCreateHome = (on: boolean): void => {
    setCreateHomeState(on);
    if (on) setTypedScope(user.scope);
    setField('scope', on ? '' : typedScope);
  };

  /** Saves; after creating, the new user's page opens (product.md §4). Failures reject. */
  const submit = async (): Promise<void> => {
    // An empty scope makes the server derive the home folder (api.md §3.2 step 5).
    const data = isNew && createHome ? { ...user, scope: '' } : user;
    const savedId = await save({ id, data, currentPassword });
    if (isNew) navigate(userEditPath(savedId), { replace: true });
  };

  return { user, isNew, minPassword: start.minPassword, offerHome: isNew && start.offerHome, createHome, setCreateHome, currentPassword, setCurrentPassword, setField, setPermission, submit };
}

export type UserForm = ReturnType<typeof useUserForm>;
