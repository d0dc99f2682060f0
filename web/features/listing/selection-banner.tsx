import { useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { clearSelectionAtom, multipleAtom, selectedAtom } from '../../state/listing';

/** "N selected" with Clear (ui.md), while anything is selected or the multiple mode is on. */
export function SelectionBanner() {
  const { t } = useTranslation();
  const count = useAtomValue(selectedAtom).size;
  const multiple = useAtomValue(multipleAtom);
  const clear = useSetAtom(clearSelectionAtom);
  if (count === 0 && !multiple) return null;
  return (
    <div className="selection-banner">
      <p aria-live="polite">{t('listing.selected', { count })}</p>
      <button type="button" className="button button-small" onClick={() => clear(true)}>{t('listing.clear')}</button>
    </div>
  );
}
