import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { Spinner } from '../../components/spinner';
import { useLatestSettled } from '../../state/settled';
import { DeleteUserDialog } from './delete-user-dialog';
import { SettingsForm } from './settings-form';
import { SettingsShell } from './settings-shell';
import { useUserForm } from './use-user-form';
import { UserFields } from './user-fields';
import { editedUserAtom, forgetEditedUser, type EditStart } from './users-state';

function UserForm({ id, start }: { id: string; start: EditStart }) {
  const { t } = useTranslation();
  const form = useUserForm(id, start);
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

/**
 * User edit (/settings/users/<id>), or creation for /settings/users/new. A spinner until the
 * user is here, not a Suspense fallback, whose reveal React 19 holds back for 300 ms.
 */
export function UserPage() {
  const { t } = useTranslation();
  const { id = 'new' } = useParams<{ id: string }>();
  const start = useLatestSettled(editedUserAtom(id));
  // The next visit starts from the stored user (or the defaults of that moment, for a new one).
  useEffect(() => () => forgetEditedUser(id), [id]);
  return (
    <SettingsShell>
      {start ? <UserForm key={id} id={id} start={start} /> : <Spinner label={t('app.loading')} />}
    </SettingsShell>
  );
}
