import { atom } from 'jotai';
import type { SettingsView } from '@contract/settings';
import { getSettings, saveSettings } from '../../api/settings';
import { configAtom } from '../../state/config';
import { brandingThemeAtom } from '../../state/theme';

const settingsVersionAtom = atom(0);

/** The global settings (admin), fetched anew each time the page is entered. */
export const settingsAtom = atom(async (get) => {
  get(settingsVersionAtom);
  return getSettings();
});

/** Marks the settings stale, so that entering the page again fetches them. */
export const refreshSettingsAtom = atom(null, (_get, set) => set(settingsVersionAtom, (v) => v + 1));

/**
 * Saves the whole settings object, as PUT /api/settings expects (api.md §3.3), then lets the
 * running app follow what the page configuration carries (name, theme, switches, issue tracker,
 * uploads).
 */
export const saveSettingsAtom = atom(null, async (get, set, settings: SettingsView) => {
  await saveSettings(settings);
  const { branding, tus } = settings;
  set(configAtom, {
    ...get(configAtom),
    Name: branding.name,
    Theme: branding.theme,
    DisableExternal: branding.disableExternal,
    DisableUsedPercentage: branding.disableUsedPercentage,
    IssueTracker: branding.issueTracker.trim(),
    Signup: settings.signup,
    HideLoginButton: settings.hideLoginButton,
    TusSettings: { chunkSize: tus.chunkSize, retryCount: tus.retryCount },
    Trash: settings.trash.enabled,
  });
  set(brandingThemeAtom, branding.theme);
});
