import type { SettingsView } from '@contract/settings';
import { useTranslation } from 'react-i18next';
import { Checkbox, SelectField, TextField } from '../../components/fields';

type Branding = SettingsView['branding'];
type BrandingFlag = 'disableExternal' | 'disableUsedPercentage';
const FLAGS: BrandingFlag[] = ['disableExternal', 'disableUsedPercentage'];

/** Branding (product.md §3): instance name, theme, the branding folder, the issue tracker and two switches. */
export function BrandingFields({ branding, onChange }: { branding: Branding; onChange: (branding: Branding) => void }) {
  const { t } = useTranslation();
  const set = (patch: Partial<Branding>): void => onChange({ ...branding, ...patch });
  return (
    <fieldset className="fieldset">
      <legend>{t('global.branding')}</legend>
      <TextField label={t('global.instanceName')} value={branding.name} placeholder="filemgr" onChange={(name) => set({ name })} />
      <SelectField label={t('global.theme')} value={branding.theme === 'dark' ? 'dark' : ''} onChange={(theme) => set({ theme })}>
        <option value="">{t('global.themeLight')}</option>
        <option value="dark">{t('global.themeDark')}</option>
      </SelectField>
      <TextField label={t('global.brandingFiles')} value={branding.files} mono spellCheck={false} help={t('global.brandingFilesHelp')}
        onChange={(files) => set({ files })} />
      <TextField label={t('global.issueTracker')} value={branding.issueTracker} mono spellCheck={false} inputMode="url" autoComplete="url"
        placeholder="https://" help={t('global.issueTrackerHelp')} onChange={(issueTracker) => set({ issueTracker })} />
      {FLAGS.map((flag) => (
        <Checkbox key={flag} label={t(`global.${flag}`)} checked={branding[flag]} onChange={(on) => set({ [flag]: on })} />
      ))}
    </fieldset>
  );
}
