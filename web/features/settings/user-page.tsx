import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { NoticeLine } from '../../components/notice';
import { configAtom } from '../../state/config';
import { DeleteUserDialog } from './delete-user-dialog';
import { PermissionsFieldset } from './permissions-fieldset';
import { SettingsShell } from './settings-shell';
import { useUserForm } from './use-user-form';
import { UserFields } from './user-fields';

function UserForm({ id }: { id: string }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const form = useUserForm(id);
  const [deleting, setDeleting] = useState(false);
  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void form.submit();
  };
  return (
    <form className="card settings-card" onSubmit={onSubmit}>
      <h1 className="card-title">{form.isNew ? t('users.new') : `${t('titles.user')} ${form.user.username}`}</h1>
      <div className="card-body">
        <UserFields user={form.user} isNew={form.isNew} setField={form.setField} />
        <PermissionsFieldset perm={form.user.perm} onChange={form.setPermission} />
        {/* json auth asks for the admin's own password before changing accounts (api.md §3.2). */}
        {config.AuthMethod === 'json' && (
          <label className="field">
            <span className="field-label">{t('users.currentPassword')}</span>
            <input className="input" type="password" value={form.currentPassword} autoComplete="current-password"
              onChange={(e) => form.setCurrentPassword(e.target.value)} />
          </label>
        )}
        <NoticeLine notice={form.notice} />
      </div>
      <div className="card-actions">
        {!form.isNew && <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>{t('users.delete')}</button>}
        <button type="submit" className="button button-primary">{t('users.save')}</button>
      </div>
      {deleting && <DeleteUserDialog id={Number(id)} currentPassword={form.currentPassword} onClose={() => setDeleting(false)} />}
    </form>
  );
}

/** User edit (/settings/users/<id>), or creation for /settings/users/new. */
export function UserPage() {
  const { id = 'new' } = useParams<{ id: string }>();
  return (
    <SettingsShell>
      <UserForm key={id} id={id} />
    </SettingsShell>
  );
}
