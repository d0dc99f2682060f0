import type { SettingsView } from '@contract/settings';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { failureNotice, NoticeLine, type Notice } from '../../components/notice';
import { saveSettingsAtom, settingsAtom } from './global-state';
import { SettingsShell } from './settings-shell';

type Flag = 'signup' | 'createUserDir' | 'hideLoginButton';
type BrandingFlag = 'disableExternal' | 'disableUsedPercentage';

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

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
        <Check key={flag} label={t(`global.${flag}`)} checked={settings.branding[flag]} onChange={(on) => branding({ [flag]: on })} />
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
  const [notice, setNotice] = useState<Notice>(null);
  const flags: Flag[] = ['signup', 'createUserDir', 'hideLoginButton'];
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    save(settings).then(
      () => setNotice({ key: 'settings.updated' }),
      (error: unknown) => setNotice(failureNotice(error, true)),
    );
  };
  return (
    <SettingsShell>
      <form className="card settings-card" onSubmit={submit}>
        <h1 className="card-title">{t('titles.global')}</h1>
        <div className="card-body">
          {flags.map((flag) => (
            <Check key={flag} label={t(`global.${flag}`)} checked={settings[flag]} onChange={(on) => setSettings({ ...settings, [flag]: on })} />
          ))}
          <label className="field">
            <span className="field-label">{t('global.userHomeBasePath')}</span>
            <input className="input mono" value={settings.userHomeBasePath} onChange={(e) => setSettings({ ...settings, userHomeBasePath: e.target.value })} />
          </label>
          <BrandingFields settings={settings} set={setSettings} />
          <NoticeLine notice={notice} />
        </div>
        <div className="card-actions">
          <button type="submit" className="button button-primary">{t('settings.save')}</button>
        </div>
      </form>
    </SettingsShell>
  );
}
