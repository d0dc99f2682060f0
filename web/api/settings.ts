import type { SettingsInput, SettingsView } from '@contract/settings';
import { apiPaths } from '../paths';
import { fetchJson, jsonBody, exchange } from './http';

/** GET /api/settings (admin only). */
export async function getSettings(): Promise<SettingsView> {
  return fetchJson<SettingsView>(apiPaths.settings);
}

/** PUT /api/settings with the whole settings object (missing fields would become zero values). */
export async function saveSettings(settings: SettingsInput): Promise<void> {
  await exchange(apiPaths.settings, jsonBody(settings, 'PUT'));
}
