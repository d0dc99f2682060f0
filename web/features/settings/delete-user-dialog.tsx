import { useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { Dialog } from '../../components/dialog';
import { failureText } from '../../lib/notice';
import { loginPath, settingsPath } from '../../paths';
import { notifyAtom } from '../../state/notices';
import { userAtom } from '../../state/session';
import { deleteUserAtom } from './users-state';

/**
 * 'Are you sure you want to delete this user?', with a warning first when it is one's own
 * account; then back to the user list (or to the login page, for one's own account).
 */
export function DeleteUserDialog({ id, currentPassword, onClose }: { id: number; currentPassword: string; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useSetAtom(deleteUserAtom);
  const notify = useSetAtom(notifyAtom);
  const self = useAtomValue(userAtom)?.id === id;
  const [, navigate] = useLocation();

  const confirm = async (): Promise<void> => {
    try {
      await remove({ id, currentPassword });
      onClose();
      notify({ kind: 'success', message: { key: 'users.deleted' } });
      navigate(self ? loginPath() : settingsPath('users'), { replace: true });
    } catch (error) {
      onClose();
      notify({ kind: 'error', message: failureText(error, true) });
    }
  };

  return (
    <Dialog
      title={t('users.deleteTitle')}
      onClose={onClose}
      onSubmit={() => void confirm()}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>
          <button type="submit" className="button button-danger" data-autofocus>{t('users.delete')}</button>
        </>
      }
    >
      {self && <p className="form-error" role="alert">{t('users.deleteSelfWarning')}</p>}
      <p>{t('users.confirmDelete')}</p>
    </Dialog>
  );
}
