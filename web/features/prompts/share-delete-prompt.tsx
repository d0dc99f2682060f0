import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';
import { failureText } from '../../lib/notice';
import type { Target } from '../../state/listing';
import { notifyAtom } from '../../state/notices';
import { showPromptAtom } from '../../state/prompts';
import { deleteLinkAtom } from './state';

/** "Delete share": confirms deleting one link, then returns to the item's share prompt. */
export function ShareDeletePrompt({ item, hash }: { item: Target; hash: string }) {
  const { t } = useTranslation();
  const remove = useSetAtom(deleteLinkAtom);
  const notify = useSetAtom(notifyAtom);
  const showPrompt = useSetAtom(showPromptAtom);
  const back = (): void => showPrompt({ kind: 'share', item });
  const confirm = (): void => {
    remove(hash).then(() => notify({ kind: 'success', message: { key: 'shares.deleted' } }), (error: unknown) => notify({ kind: 'error', message: failureText(error) }))
      .finally(back);
  };
  return (
    <Dialog title={t('shareDialog.deleteTitle')} onClose={back} onSubmit={confirm}
      actions={
        <>
          <button type="button" className="button" onClick={back}>{t('prompts.cancel')}</button>
          <button type="submit" className="button button-danger" data-autofocus>{t('shareDialog.delete')}</button>
        </>
      }>
      <p>{t('shareDialog.deleteMessage')}</p>
    </Dialog>
  );
}
