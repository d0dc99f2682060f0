import type { PermissionsWire } from '@contract/user';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/fields';
import type { PermissionKey } from './use-user-form';

const ORDER: PermissionKey[] = ['admin', 'create', 'delete', 'download', 'modify', 'rename', 'share', 'execute'];

/** The eight permission boxes; the others are disabled while administrator is ticked. */
export function PermissionsFieldset({ perm, onChange }: { perm: PermissionsWire; onChange: (key: PermissionKey, on: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <fieldset className="fieldset">
      <legend>{t('users.permissions')}</legend>
      {ORDER.map((key) => (
        <Checkbox key={key} label={t(`perms.${key}`)} checked={perm[key]} disabled={key !== 'admin' && perm.admin} onChange={(on) => onChange(key, on)} />
      ))}
    </fieldset>
  );
}
