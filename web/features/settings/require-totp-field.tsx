import type { SettingsView } from '@contract/settings';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/fields';

/** Global setting `requireTotp` (beyond.md §4.2): users without two-factor sign-in are sent to set it up. */
export function RequireTotpField({ settings, patch }: { settings: SettingsView; patch: (p: Partial<SettingsView>) => void }) {
  const { t } = useTranslation();
  return <Checkbox label={t('totp.requireLabel')} help={t('totp.requireHelp')} checked={settings.requireTotp} onChange={(requireTotp) => patch({ requireTotp })} />;
}
