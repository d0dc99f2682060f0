import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';
import { failureText } from '../../lib/notice';
import { transferAtom } from '../../state/file-ops';
import { notifyAtom } from '../../state/notices';
import type { Transfer } from '../../state/prompts';
import { useAfterTransfer } from './use-after-transfer';

/** Replace or rename (product.md §4): overwrite, keep both under a free name, or cancel. */
export function ReplacePrompt({ transfer, onClose }: { transfer: Transfer; onClose: () => void }) {
  const { t } = useTranslation();
  const run = useSetAtom(transferAtom);
  const notify = useSetAtom(notifyAtom);
  const after = useAfterTransfer();
  const answer = (override: boolean): void => {
    onClose();
    run({ transfer, flags: { override, rename: !override } }).then((done) => after(transfer, done)).catch((error: unknown) => notify({ kind: 'error', message: failureText(error, true) }));
  };
  return (
    <Dialog title={t('prompts.replaceTitle')} onClose={onClose} onSubmit={() => answer(true)}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>
          <button type="button" className="button" onClick={() => answer(false)}>{t('prompts.keepBoth')}</button>
          <button type="submit" className="button button-danger" data-autofocus>{t('prompts.replace')}</button>
        </>
      }>
      <p>{t('prompts.replaceMessage')}</p>
    </Dialog>
  );
}
