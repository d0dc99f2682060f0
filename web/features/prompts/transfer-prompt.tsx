import { useSetAtom } from 'jotai';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';
import { failureText } from '../../lib/notice';
import { parentPath } from '../../paths';
import { transferAtom } from '../../state/file-ops';
import type { Target } from '../../state/listing';
import { notifyAtom } from '../../state/notices';
import { FolderPicker } from './folder-picker';
import { useAfterTransfer } from './use-after-transfer';

/**
 * Move or copy: pick a folder, then confirm (Enter confirms too). Move is disabled on the items'
 * own folder (product.md §5); a name clash there opens the replace-or-rename prompt.
 */
export function TransferPrompt({ kind, items, onClose }: { kind: 'move' | 'copy'; items: readonly Target[]; onClose: () => void }) {
  const { t } = useTranslation();
  const transfer = useSetAtom(transferAtom);
  const notify = useSetAtom(notifyAtom);
  const after = useAfterTransfer();
  const from = parentPath(items[0]?.path ?? '/');
  const [dest, setDest] = useState(from);
  const choose = useCallback((path: string) => setDest(path), []);
  const blocked = kind === 'move' && dest === from;

  const confirm = (): void => {
    if (blocked) return;
    onClose();
    const chosen = { action: kind === 'move' ? 'rename' : 'copy', items, dest, fromPicker: true } as const;
    transfer({ transfer: chosen })
      .then((done) => after(chosen, done))
      .catch((error: unknown) => notify({ kind: 'error', message: failureText(error, true) }));
  };

  return (
    <Dialog title={t(kind === 'move' ? 'prompts.moveTitle' : 'prompts.copyTitle')} onClose={onClose} onSubmit={confirm} className="dialog-wide"
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>
          <button type="submit" className="button button-primary" disabled={blocked} data-autofocus>{t(kind === 'move' ? 'actions.move' : 'actions.copy')}</button>
        </>
      }>
      <p>{t(kind === 'move' ? 'prompts.moveMessage' : 'prompts.copyMessage')}</p>
      <FolderPicker start={from} onChange={choose} />
    </Dialog>
  );
}
