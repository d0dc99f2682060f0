import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { currentLang } from '../../i18n';
import { formatSize, usedPercent } from '../../lib/format';
import { usageValueAtom } from './state';

/** 'X of Y used' with a bar, for the volume of the folder on screen. */
export function UsageBar() {
  const { t } = useTranslation();
  const usage = useAtomValue(usageValueAtom);
  if (!usage || usage.total <= 0) return null;
  const { used, total } = usage;
  const lang = currentLang();
  const text = t('sidebar.usage', { used: formatSize(used, lang), total: formatSize(total, lang) });
  const percent = usedPercent(used, total);
  return (
    <div className="usage">
      <div
        className="usage-track"
        role="progressbar"
        aria-label={t('sidebar.usageLabel')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
      >
        <div className="usage-fill" style={{ inlineSize: `${percent}%` }} />
      </div>
      <p className="usage-text">{text}</p>
    </div>
  );
}
