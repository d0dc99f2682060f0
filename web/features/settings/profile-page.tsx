import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, LanguageSelect, SelectField } from '../../components/fields';
import { resolveLocale } from '../../i18n/locales';
import { abilitiesAtom } from '../../state/abilities';
import { userAtom } from '../../state/session';
import { ownThemeAtom, previewThemeAtom, themeAtom } from '../../state/theme';
import { ApiTokensCard } from './api-tokens-card';
import { PasswordCard } from './password-card';
import { TwoFactorCard } from './two-factor-card';
import { SettingsForm } from './settings-form';
import { SettingsShell } from './settings-shell';
import { saveProfileAtom, type ProfileChoices } from './state';
import { WebdavCard } from './webdav-card';

type Flag = 'hideDotfiles' | 'singleClick' | 'dateFormat';
const FLAGS: Flag[] = ['hideDotfiles', 'singleClick', 'dateFormat'];

function ProfileCard() {
  const { t } = useTranslation();
  const user = useAtomValue(userAtom);
  const theme = useAtomValue(themeAtom);
  const own = useAtomValue(ownThemeAtom);
  const preview = useSetAtom(previewThemeAtom);
  // A pick not saved is shown only while the form is: leaving it brings the saved theme back.
  useEffect(() => () => preview(null), [preview]);
  const save = useSetAtom(saveProfileAtom);
  const [choices, setChoices] = useState<ProfileChoices>({
    locale: resolveLocale(user?.locale, navigator.languages),
    hideDotfiles: user?.hideDotfiles ?? false,
    singleClick: user?.singleClick ?? false,
    dateFormat: user?.dateFormat ?? false,
    theme: own === 'system' ? 'system' : theme === 'dark' ? 'dark' : '',
  });
  return (
    <SettingsForm title={t('titles.profile')} save={() => save(choices)}>
      {FLAGS.map((flag) => (
        <Checkbox key={flag} label={t(`settings.${flag}`)} checked={choices[flag]} onChange={(on) => setChoices({ ...choices, [flag]: on })} />
      ))}
      <LanguageSelect label={t('settings.language')} value={choices.locale} onChange={(locale) => setChoices({ ...choices, locale })} />
      <SelectField label={t('settings.theme')} value={choices.theme} help={t('settings.themeHelp')} onChange={(value) => { setChoices({ ...choices, theme: value }); preview(value); }}>
        <option value="">{t('global.themeLight')}</option>
        <option value="dark">{t('global.themeDark')}</option>
        <option value="system">{t('global.themeSystem')}</option>
      </SelectField>
    </SettingsForm>
  );
}

/** Profile settings: display choices, language and theme, and the password (product.md §2). */
export function ProfilePage() {
  const canChangePassword = useAtomValue(abilitiesAtom).changePassword;
  return (
    <SettingsShell>
      <ProfileCard />
      {canChangePassword && <PasswordCard />}
      <TwoFactorCard />
      <ApiTokensCard />
      <WebdavCard />
    </SettingsShell>
  );
}
