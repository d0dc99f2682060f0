import type { PermissionsWire } from '@contract/user';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import { failureNotice, type Notice } from '../../components/notice';
import { userEditPath } from '../../paths';
import { editedUserAtom, saveUserAtom, type EditedUser } from './users-state';

export type PermissionKey = keyof PermissionsWire;

/** The user edit form's values, the admin rule of product.md §4 and saving. */
export function useUserForm(id: string) {
  const initial = useAtomValue(editedUserAtom(id));
  const save = useSetAtom(saveUserAtom);
  const [, navigate] = useLocation();
  const [user, setUser] = useState<EditedUser>(initial);
  const [currentPassword, setCurrentPassword] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  // 'User created!' travels with the history entry of the new user's page, which mounts afresh.
  const created = useHistoryState<{ created?: boolean } | null>()?.created === true;
  const isNew = id === 'new';

  const setField = <K extends keyof EditedUser>(key: K, value: EditedUser[K]): void =>
    setUser((u) => ({ ...u, [key]: value }));

  // Ticking administrator grants every permission and unlocks the password (product.md §4).
  const setPermission = (key: PermissionKey, on: boolean): void =>
    setUser((u) => {
      if (key !== 'admin') return { ...u, perm: { ...u.perm, [key]: on } };
      if (!on) return { ...u, perm: { ...u.perm, admin: false } };
      const all = Object.fromEntries(Object.keys(u.perm).map((k) => [k, true])) as PermissionsWire;
      return { ...u, perm: all, lockPassword: false };
    });

  const submit = async (): Promise<void> => {
    try {
      const savedId = await save({ id, data: user, currentPassword });
      if (isNew) navigate(userEditPath(savedId), { replace: true, state: { created: true } });
      else setNotice({ key: 'users.updated' });
    } catch (error) {
      setNotice(failureNotice(error, true));
    }
  };

  const shown: Notice = notice ?? (created ? { key: 'users.created' } : null);
  return { user, isNew, currentPassword, setCurrentPassword, setField, setPermission, notice: shown, submit };
}
