import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { Dialog } from '../../components/dialog';
import { errorKind, statusOf } from '../../lib/errors';
import { settingsPath } from '../../paths';
import { deleteUserAtom } from './users-state';

/** 'Are you sure you want to delete this user?', then back to the user list. */
export function DeleteUserDialog({ id, currentPassword, onClose }: { id: number; currentPassword: string; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useSetAtom(deleteUserAtom);
  const [, navigate] = useLocation();
  const [failure, setFailure] = useState('');

  const confirm = async (): Promise<void> => {
    try {
      await remove({ id, currentPassword });
      onClose();
      navigate(settingsPath('users'), { replace: true });
    } catch (error) {
      const status = statusOf(error);
      // 403 is the sole admin or a foreign account: the forbidden text; others carry their message.
      setFailure(status === 403 || !(error instanceof Error) ? t(`errors.${errorKind(status)}`) : error.message);
    }
  };

  return (
    <Dialog
      title={t('users.delete')}
      onClose={onClose}
      onSubmit={() => void confirm()}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>
          <button type="submit" className="button button-danger">{t('users.delete')}</button>
        </>
      }
    >
      <p>{t('users.confirmDelete')}</p>
      {failure && <p className="form-error" role="alert">{failure}</p>}
    </Dialog>
  );
}
