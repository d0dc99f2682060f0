import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';

/** "Discard changes?" (ui.md): Cancel stays in the editor, Discard leaves without saving. */
export function DiscardDialog({ name, onStay, onDiscard }: { name: string; onStay: () => void; onDiscard: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t('editor.discardTitle')}
      onClose={onStay}
      onSubmit={onDiscard}
      actions={
        <>
          <button type="button" className="button" onClick={onStay}>{t('editor.cancel')}</button>
          <button type="submit" className="button button-danger" data-autofocus>{t('editor.discard')}</button>
        </>
      }
    >
      <p>{t('editor.discardMessage', { name })}</p>
    </Dialog>
  );
}
