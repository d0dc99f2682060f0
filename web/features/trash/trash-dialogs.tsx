import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';

interface ConfirmProps {
  onClose: () => void;
  onConfirm: () => void;
}

/** "Delete permanently": one item goes for ever. */
export function DeleteForeverDialog({ name, onClose, onConfirm }: ConfirmProps & { name: string }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('trash.deleteForever')} onClose={onClose} onSubmit={onConfirm}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>
          <button type="submit" className="button button-danger" data-autofocus>{t('trash.deleteForever')}</button>
        </>
      }>
      <p>{t('trash.deleteForeverText', { name })}</p>
      <p className="field-help">{t('prompts.deleteHint')}</p>
    </Dialog>
  );
}

/** "Empty trash": every item goes for ever. */
export function EmptyTrashDialog({ count, onClose, onConfirm }: ConfirmProps & { count: number }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('trash.empty')} onClose={onClose} onSubmit={onConfirm}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>
          <button type="submit" className="button button-danger" data-autofocus>{t('trash.empty')}</button>
        </>
      }>
      <p>{t('trash.emptyText', { count })}</p>
      <p className="field-help">{t('prompts.deleteHint')}</p>
    </Dialog>
  );
}

/** "Restore" when something already has the item's place: replace it, keep both, or cancel. */
export function RestoreConflictDialog({ path, onClose, onChoose }: { path: string; onClose: () => void; onChoose: (how: 'override' | 'rename') => void }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('trash.restore')} onClose={onClose} onSubmit={() => onChoose('rename')}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>
          <button type="button" className="button button-danger" onClick={() => onChoose('override')}>{t('trash.replace')}</button>
          <button type="submit" className="button button-primary" data-autofocus>{t('trash.keepBoth')}</button>
        </>
      }>
      <p>{t('trash.conflict', { path })}</p>
    </Dialog>
  );
}
