import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { failureNotice, NoticeLine, type Notice } from '../../components/notice';
import { SettingsShell } from './settings-shell';

interface SettingsFormProps {
  title: string;
  /** Runs on submit; its outcome is shown under the fields. */
  save: () => Promise<unknown>;
  /** Show a 400's own message instead of the generic one (the server explains what to fix). */
  serverText?: boolean;
  children: ReactNode;
}

/** A settings card in the settings shell: title, fields, the outcome of the last save and Save. */
export function SettingsForm({ title, save, serverText = false, children }: SettingsFormProps) {
  const { t } = useTranslation();
  const [notice, setNotice] = useState<Notice>(null);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    save().then(
      () => setNotice({ key: 'settings.updated' }),
      (error: unknown) => setNotice(failureNotice(error, serverText)),
    );
  };
  return (
    <SettingsShell>
      <form className="card settings-card" onSubmit={submit}>
        <h1 className="card-title">{title}</h1>
        <div className="card-body">
          {children}
          <NoticeLine notice={notice} />
        </div>
        <div className="card-actions">
          <button type="submit" className="button button-primary">{t('settings.save')}</button>
        </div>
      </form>
    </SettingsShell>
  );
}
