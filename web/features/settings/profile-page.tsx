import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, resolveLocale } from '../../i18n/locales';
import { failureNotice, NoticeLine, type Notice } from '../../components/notice';
import { userAtom } from '../../state/session';
import { SettingsShell } from './settings-shell';
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
  const [notice, setNotice] = useState<Notice>(null);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    save(choices).then(
      () => setNotice({ key: 'settings.updated' }),
      (error: unknown) => setNotice(failureNotice(error)),
    );
  };

  return (
    <SettingsShell>
      <form className="card settings-card" onSubmit={submit}>
        <h1 className="card-title">{t('titles.profile')}</h1>
        <div className="card-body">
          {FLAGS.map((flag) => (
            <label key={flag} className="checkbox">
              <input type="checkbox" checked={choices[flag]} onChange={(e) => setChoices({ ...choices, [flag]: e.target.checked })} />
              <span>{t(`settings.${flag}`)}</span>
            </label>
          ))}
          <label className="field">
            <span className="field-label">{t('settings.language')}</span>
            <select className="input" value={choices.locale} onChange={(e) => setChoices({ ...choices, locale: e.target.value })}>
              {LOCALES.map((l) => <option key={l.code} value={l.code} lang={l.lang}>{l.name}</option>)}
            </select>
          </label>
          <NoticeLine notice={notice} />
        </div>
        <div className="card-actions">
          <button type="submit" className="button button-primary">{t('settings.save')}</button>
        </div>
      </form>
    </SettingsShell>
  );
}
