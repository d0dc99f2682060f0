import type { SettingsView } from '@contract/settings';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/fields';
import { saveSettingsAtom, settingsAtom } from './global-state';
import { SettingsForm } from './settings-form';

type Flag = 'signup' | 'createUserDir' | 'hideLoginButton';
type BrandingFlag = 'disableExternal' | 'disableUsedPercentage';

function BrandingFields({ settings, set }: { settings: SettingsView; set: (s: SettingsView) => void }) {
  const { t } = useTranslation();
  const branding = (patch: Partial<SettingsView['branding']>): void => set({ ...settings, branding: { ...settings.branding, ...patch } });
  const flags: BrandingFlag[] = ['disableExternal', 'disableUsedPercentage'];
  return (
    <fieldset className="fieldset">
      <legend>{t('global.branding')}</legend>
      <label className="field">
        <span className="field-label">{t('global.instanceName')}</span>
        <input className="input" value={settings.branding.name} onChange={(e) => branding({ name: e.target.value })} />
      </label>
      <label className="field">
        <span className="field-label">{t('global.theme')}</span>
        <select className="input" value={settings.branding.theme} onChange={(e) => branding({ theme: e.target.value })}>
          <option value="">{t('global.themeLight')}</option>
          <option value="dark">{t('global.themeDark')}</option>
        </select>
      </label>
      {flags.map((flag) => (
        <Checkbox key={flag} label={t(`global.${flag}`)} checked={settings.branding[flag]} onChange={(on) => branding({ [flag]: on })} />
      ))}
    </fieldset>
  );
}

/** Global Settings: sign-up, home folders and branding; the rest of the card grows later. */
export function GlobalPage() {
  const { t } = useTranslation();
  const loaded = useAtomValue(settingsAtom);
  const save = useSetAtom(saveSettingsAtom);
  const [settings, setSettings] = useState(loaded);
  const flags: Flag[] = ['signup', 'createUserDir', 'hideLoginButton'];
  return (
    <SettingsForm title={t('titles.global')} save={() => save(settings)} serverText>
      {flags.map((flag) => (
        <Checkbox key={flag} label={t(`global.${flag}`)} checked={settings[flag]} onChange={(on) => setSettings({ ...settings, [flag]: on })} />
      ))}
      <label className="field">
        <span className="field-label">{t('global.userHomeBasePath')}</span>
        <input className="input mono" value={settings.userHomeBasePath} onChange={(e) => setSettings({ ...settings, userHomeBasePath: e.target.value })} />
      </label>
      <BrandingFields settings={settings} set={setSettings} />
    </SettingsForm>
  );
}
