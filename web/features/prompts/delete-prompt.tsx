import { useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';
import { failureText } from '../../lib/notice';
import { configAtom } from '../../state/config';
import { deleteItemsAtom } from '../../state/file-ops';
import type { Target } from '../../state/listing';
import { notifyAtom } from '../../state/notices';

interface DeletePromptProps {
  items: readonly Target[];
  onClose: () => void;
  /** Runs after a successful delete (the preview moves to a neighbour, product.md §4). */
  onDone?: () => void;
}

/** Delete: confirmed with the Delete button or Enter; the listing reloads, also after a failure. */
export function DeletePrompt({ items, onClose, onDone }: DeletePromptProps) {
  const { t } = useTranslation();
  const remove = useSetAtom(deleteItemsAtom);
  const notify = useSetAtom(notifyAtom);
  // While the trash is on, the items move there and can be restored (beyond.md §3).
  const toTrash = useAtomValue(configAtom).Trash;
  const confirm = (): void => {
    onClose();
    remove(items).then(() => onDone?.(), (error: unknown) => notify({ kind: 'error', message: failureText(error, true) }));
  };
  const first = items[0];
  return (
    <Dialog title={t('prompts.deleteTitle')} onClose={onClose} onSubmit={confirm}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>
          <button type="submit" className="button button-danger" data-autofocus>{t('actions.delete')}</button>
        </>
      }>
      <p>{items.length === 1 && first ? t('prompts.deleteOne', { name: first.name }) : t('prompts.deleteMany', { count: items.length })}</p>
      <p className="field-help">{toTrash ? t('trash.moveHint') : t('prompts.deleteHint')}</p>
    </Dialog>
  );
}
