import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';
import { folderName } from '../../paths';
import { answerConflictAtom, type Conflict } from './state';

// A long list of clashing names would push the buttons off a phone's screen.
const SHOWN = 5;

/** ui.md "Replace": overwrite the existing items, keep both (free names), or cancel the upload. */
export function ConflictPrompt({ conflict }: { conflict: Conflict }) {
  const { t } = useTranslation();
  const answer = useSetAtom(answerConflictAtom);
  const names = [...conflict.clashes];
  const folder = folderName(conflict.dest) || t('listing.root');
  return (
    <Dialog title={t('upload.replaceTitle')} className="upload-conflict" onClose={() => answer('cancel')} onSubmit={() => answer('replace')}
      actions={
        <>
          <button type="button" className="button" onClick={() => answer('cancel')}>{t('upload.cancel')}</button>
          <button type="button" className="button" onClick={() => answer('continue')}>{t('upload.continue')}</button>
          <button type="submit" className="button button-danger" data-autofocus>{t('upload.replace')}</button>
        </>
      }>
      <p>{t('upload.replaceMessage', { folder })}</p>
      <ul className="upload-clashes">
        {names.slice(0, SHOWN).map((name) => <li key={name}><bdi>{name}</bdi></li>)}
        {names.length > SHOWN && <li className="upload-clashes-more">{t('upload.more', { count: names.length - SHOWN })}</li>}
      </ul>
      <p className="upload-hint">{t('upload.replaceHint')}</p>
    </Dialog>
  );
}
