import type { SettingsView } from '@contract/settings';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, TextField } from '../../components/fields';
import { Spinner } from '../../components/spinner';
import { wholeNumberOf } from '../../lib/words';
import { configAtom } from '../../state/config';
import { useSettled } from '../../state/settled';
import { ActivityDaysField } from './activity-days-field';
import { BrandingFields } from './branding-fields';
import { CommandRunnerFields } from './command-runner-fields';
import { DefaultsFields } from './defaults-card';
import { refreshSettingsAtom, saveSettingsAtom, settingsAtom } from './global-state';
import { RequireTotpField } from './require-totp-field';
import { RulesEditor } from './rules-editor';
import { SettingsForm } from './settings-form';
import { SettingsShell } from './settings-shell';
import { UploadFields } from './upload-fields';
import { TrashFields } from './trash-fields';

type Flag = 'signup' | 'createUserDir' | 'hideLoginButton';
const FLAGS: Flag[] = ['signup', 'createUserDir', 'hideLoginButton'];
type Patch = (patch: Partial<SettingsView>) => void;

function GlobalFields({ settings, patch }: { settings: SettingsView; patch: Patch }) {
  const { t } = useTranslation();
  const setMinimum = (text: string): void => patch({ minimumPasswordLength: wholeNumberOf(text, 1024) });
  return (
    <>
      {FLAGS.map((flag) => (
        <Checkbox key={flag} label={t(`global.${flag}`)} checked={settings[flag]} onChange={(on) => patch({ [flag]: on })} />
      ))}
      <TextField label={t('global.userHomeBasePath')} value={settings.userHomeBasePath} mono spellCheck={false}
        onChange={(userHomeBasePath) => patch({ userHomeBasePath })} />
      <TextField label={t('global.minimumPasswordLength')} value={String(settings.minimumPasswordLength)} inputMode="numeric" onChange={setMinimum} />
      <RequireTotpField settings={settings} patch={patch} />
      <RulesEditor rules={settings.rules} help={t('rules.globalHelp')} onChange={(rules) => patch({ rules })} />
      <BrandingFields branding={settings.branding} onChange={(branding) => patch({ branding })} />
      <UploadFields tus={settings.tus} onChange={(tus) => patch({ tus })} />
      <ActivityDaysField value={settings.activityDays} onChange={(activityDays) => patch({ activityDays })} />
      <TrashFields trash={settings.trash} onChange={(trash) => patch({ trash })} />
    </>
  );
}

/**
 * Global Settings (product.md §2, §3): the global card, the user defaults and, when commands may
 * run at all, the command runner. Every card saves the whole settings object, as the API wants.
 */
export function GlobalPage() {
  const { t } = useTranslation();
  const loaded = useSettled(settingsAtom);
  const refresh = useSetAtom(refreshSettingsAtom);
  // Entering the page again shows the stored settings, also after a change made elsewhere.
  useEffect(() => () => refresh(), [refresh]);
  if (!loaded) return <SettingsShell><Spinner label={t('app.loading')} /></SettingsShell>;
  return <GlobalCards loaded={loaded} />;
}

/** The cards of the global settings, editing a copy of `loaded`. */
function GlobalCards({ loaded }: { loaded: SettingsView }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const save = useSetAtom(saveSettingsAtom);
  const [settings, setSettings] = useState(loaded);
  const patch: Patch = (p) => setSettings((s) => ({ ...s, ...p }));
  return (
    <SettingsShell>
      <SettingsForm title={t('titles.global')} save={() => save(settings)} serverText>
        <GlobalFields settings={settings} patch={patch} />
      </SettingsForm>
      <SettingsForm title={t('global.userDefaults')} save={() => save(settings)} serverText>
        <DefaultsFields defaults={settings.defaults} onChange={(defaults) => patch({ defaults })} />
      </SettingsForm>
      {config.EnableExec && (
        <SettingsForm title={t('global.commandRunner')} save={() => save(settings)} success="global.commandsUpdated" serverText>
          <CommandRunnerFields shell={settings.shell} commands={settings.commands} onChange={patch} />
        </SettingsForm>
      )}
    </SettingsShell>
  );
}
