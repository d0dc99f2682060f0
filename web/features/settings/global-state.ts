import { atom } from 'jotai';
import type { SettingsView } from '@contract/settings';
import { getSettings, saveSettings } from '../../api/settings';

const settingsVersionAtom = atom(0);

/** The global settings (admin). */
export const settingsAtom = atom(async (get) => {
  get(settingsVersionAtom);
  return getSettings();
});

/** Saves the whole settings object, as PUT /api/settings expects (api.md §3.3). */
export const saveSettingsAtom = atom(null, async (_get, set, settings: SettingsView) => {
  await saveSettings(settings);
  set(settingsVersionAtom, (v) => v + 1);
});
