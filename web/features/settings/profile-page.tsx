import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resolveLocale } from '../../i18n/locales';
import { Checkbox, LanguageSelect } from '../../components/fields';
import { userAtom } from '../../state/session';
import { SettingsForm } from './settings-form';
import { saveProfileAtom, type ProfileChoices } from './state';

type Flag = 'hideDotfiles' | 'singleClick' | 'dateFormat';
const FLAGS: Flag[] = ['hideDotfiles', 'singleClick', 'dateFormat'];

/** Profile settings: language and the display choices stored on the user (product.md §2). */
export function ProfilePage() {
  const { t } = useTranslation();
  const user = useAtomValue(userAtom);
  const save = useSetAtom(saveProfileAtom);
  const [choices, setChoices] = useState<ProfileChoices>({
    locale: resolveLocale(user?.locale, navigator.languages),
    hideDotfiles: user?.hideDotfiles ?? false,
    singleClick: user?.singleClick ?? false,
    dateFormat: user?.dateFormat ?? false,
  });
  return (
    <SettingsForm title={t('titles.profile')} save={() => save(choices)}>
      {FLAGS.map((flag) => (
        <Checkbox key={flag} label={t(`settings.${flag}`)} checked={choices[flag]} onChange={(on) => setChoices({ ...choices, [flag]: on })} />
      ))}
      <LanguageSelect label={t('settings.language')} value={choices.locale} onChange={(locale) => setChoices({ ...choices, locale })} />
    </SettingsForm>
  );
}
