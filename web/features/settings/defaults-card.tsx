import type { SettingsView } from '@contract/settings';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Checkbox, LanguageSelect, SelectField, TextField } from '../../components/fields';
import { DEFAULT_LOCALE, findLocale } from '../../i18n/locales';
import { configAtom } from '../../state/config';
import { CommandsField } from './commands-field';
import { PermissionsFieldset, withPermission } from './permissions-fieldset';

type Defaults = SettingsView['defaults'];
type Flag = 'singleClick' | 'hideDotfiles' | 'dateFormat';
const FLAGS: Flag[] = ['hideDotfiles', 'singleClick', 'dateFormat'];
const VIEW_MODES = [['list', 'viewList'], ['mosaic', 'viewMosaic'], ['mosaic gallery', 'viewGallery']] as const;

/** The user defaults (product.md §3): what every new user, signed up or created, starts with. */
export function DefaultsFields({ defaults, onChange }: { defaults: Defaults; onChange: (defaults: Defaults) => void }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const set = (patch: Partial<Defaults>): void => onChange({ ...defaults, ...patch });
  return (
    <>
      <p className="card-subtitle">{t('global.userDefaultsHelp')}</p>
      <TextField label={t('users.scope')} value={defaults.scope} mono spellCheck={false} onChange={(scope) => set({ scope })} />
      <LanguageSelect label={t('settings.language')} value={findLocale(defaults.locale)?.code ?? DEFAULT_LOCALE} onChange={(locale) => set({ locale })} />
      <SelectField label={t('global.viewMode')} value={defaults.viewMode} onChange={(viewMode) => set({ viewMode })}>
        {VIEW_MODES.map(([mode, key]) => <option key={mode} value={mode}>{t(`global.${key}`)}</option>)}
      </SelectField>
      {FLAGS.map((flag) => (
        <Checkbox key={flag} label={t(`settings.${flag}`)} checked={defaults[flag]} onChange={(on) => set({ [flag]: on })} />
      ))}
      <PermissionsFieldset perm={defaults.perm} onChange={(key, on) => set({ perm: withPermission(defaults.perm, key, on) })} />
      {config.EnableExec && <CommandsField commands={defaults.commands} onChange={(commands) => set({ commands })} />}
    </>
  );
}
