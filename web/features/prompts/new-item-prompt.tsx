import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { Dialog } from '../../components/dialog';
import { errorKind } from '../../lib/errors';
import { statusOf } from '../../lib/errors';
import { filesPath } from '../../paths';
import { createItemAtom } from './state';

/** The newDir and newFile prompts: a name, then the new item opens (product.md §4 'Create'). */
export function NewItemPrompt({ isDir, onClose }: { isDir: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useSetAtom(createItemAtom);
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [failure, setFailure] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (): Promise<void> => {
    setBusy(true);
    try {
      const path = await create({ name, isDir });
      onClose();
      navigate(filesPath(path));
    } catch (error) {
      setFailure(statusOf(error));
      setBusy(false);
    }
  };

  const message = failure === 409 ? t('prompts.exists') : failure !== null ? t(`errors.${errorKind(failure)}`) : null;
  return (
    <Dialog
      title={isDir ? t('sidebar.newFolder') : t('sidebar.newFile')}
      onClose={onClose}
      onSubmit={() => void submit()}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>
          <button type="submit" className="button button-primary" disabled={busy}>{t('prompts.create')}</button>
        </>
      }
    >
      <p>{isDir ? t('prompts.newDirMessage') : t('prompts.newFileMessage')}</p>
      <label className="field">
        <span className="field-label">{t('prompts.name')}</span>
        <input className="input" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
      </label>
      {message && <p className="form-error" role="alert">{message}</p>}
    </Dialog>
  );
}
