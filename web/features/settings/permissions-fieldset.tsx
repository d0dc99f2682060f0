import type { PermissionsWire } from '@contract/user';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/fields';
import { configAtom } from '../../state/config';

export type PermissionKey = keyof PermissionsWire;

const ORDER: PermissionKey[] = ['admin', 'create', 'delete', 'download', 'modify', 'rename', 'share', 'execute'];

/** Ticking administrator grants every permission (product.md §4); unticking leaves the rest. */
export function withPermission(perm: PermissionsWire, key: PermissionKey, on: boolean): PermissionsWire {
  if (key === 'admin' && on) return Object.fromEntries(ORDER.map((k) => [k, true])) as PermissionsWire;
  return { ...perm, [key]: on };
}

/**
 * The permission boxes; the others are disabled while administrator is ticked. "Execute commands"
 * shows only when the command runner is enabled (product.md §6).
 */
export function PermissionsFieldset({ perm, onChange }: { perm: PermissionsWire; onChange: (key: PermissionKey, on: boolean) => void }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const keys = ORDER.filter((key) => key !== 'execute' || config.EnableExec);
  return (
    <fieldset className="fieldset permissions">
      <legend>{t('users.permissions')}</legend>
      {keys.map((key) => (
        <Checkbox key={key} label={t(`perms.${key}`)} checked={perm[key]} disabled={key !== 'admin' && perm.admin} onChange={(on) => onChange(key, on)} />
      ))}
    </fieldset>
  );
}
