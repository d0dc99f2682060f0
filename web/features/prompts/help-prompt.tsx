import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';

type HelpKey = 'f1' | 'f2' | 'del' | 'esc' | 'search' | 'save' | 'selectAll' | 'clipboard' | 'multiSelect' | 'rangeSelect' | 'click' | 'doubleClick';

/** The help card: the keyboard and mouse shortcuts of product.md §2 'Keyboard'. */
export function HelpPrompt({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const ctrl = t('keys.ctrl');
  const rows: [string, HelpKey][] = [
    ['F1', 'f1'],
    ['F2', 'f2'],
    [t('keys.del'), 'del'],
    [t('keys.esc'), 'esc'],
    [`${ctrl} + F`, 'search'],
    [`${ctrl} + S`, 'save'],
    [`${ctrl} + A`, 'selectAll'],
    [`${ctrl} + C / X / V`, 'clipboard'],
    [`${ctrl} + ${t('keys.click')}`, 'multiSelect'],
    [`${t('keys.shift')} + ${t('keys.click')}`, 'rangeSelect'],
    [t('keys.click'), 'click'],
    [t('keys.doubleClick'), 'doubleClick'],
  ];
  return (
    <Dialog
      title={t('help.title')}
      onClose={onClose}
      actions={<button type="button" className="button button-primary" onClick={onClose}>{t('prompts.ok')}</button>}
    >
      <h3 className="help-heading">{t('help.shortcuts')}</h3>
      <dl className="shortcuts">
        {rows.map(([keys, text]) => (
          <div key={text} className="shortcut">
            <dt><kbd>{keys}</kbd></dt>
            <dd>{t(`help.${text}`)}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
