import { useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
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
      {/* On a phone the button shrinks to its icon (files-bar.css) to leave the bar room for actions. */}
      <button type="button" className="button button-small selection-clear" aria-label={t('listing.clear')} title={t('listing.clear')} onClick={() => clear(true)}>
        <Icon name="close" />
        <span className="selection-clear-text">{t('listing.clear')}</span>
      </button>
    </div>
  );
}
