import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { DeleteUserDialog } from './delete-user-dialog';
import { SettingsForm } from './settings-form';
import { SettingsShell } from './settings-shell';
import { useUserForm } from './use-user-form';
import { UserFields } from './user-fields';
import { forgetEditedUser } from './users-state';

function UserForm({ id }: { id: string }) {
  const { t } = useTranslation();
  const form = useUserForm(id);
  const [deleting, setDeleting] = useState(false);
  const title = form.isNew ? t('users.newTitle') : t('users.editTitle', { name: form.user.username });
  const deleteButton = !form.isNew && (
    <button type="button" className="button button-danger button-leading" onClick={() => setDeleting(true)}>{t('users.delete')}</button>
  );
  return (
    <>
      <SettingsForm title={title} save={form.submit} success={form.isNew ? 'users.created' : 'users.updated'} serverText
        submitLabel={t('users.save')} extraActions={deleteButton}>
        <UserFields form={form} />
      </SettingsForm>
      {deleting && <DeleteUserDialog id={Number(id)} currentPassword={form.currentPassword} onClose={() => setDeleting(false)} />}
    </>
  );
}

/** User edit (/settings/users/<id>), or creation for /settings/users/new. */
export function UserPage() {
  const { id = 'new' } = useParams<{ id: string }>();
  // The next visit starts from the stored user (or the defaults of that moment, for a new one).
  useEffect(() => () => forgetEditedUser(id), [id]);
  return (
    <SettingsShell>
      <UserForm key={id} id={id} />
    </SettingsShell>
  );
}
