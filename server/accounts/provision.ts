import type { Store } from '../state/store';
import type { UserRecord } from '../state/schema';
import { ensureHome, resolveScope } from './home';
import { assertScopeFree, assertUsernameFree, insertUser, type NewUser } from './records';
import { effectiveSettings } from './settings-normalize';

export interface ProvisionRequest {
  /** The user to save (defaults already applied, privileges already stripped or granted). */
  user: NewUser;
  /** A scope the caller chose (hook `user.scope`); kept as-is and may be shared. */
  explicitScope?: string;
}

/**
 * Saves a self-provisioned user (signup, proxy, hook) with its home (api.md §8.2): with
 * createUserDir the home is derived from the name and must not belong to anyone else (409,
 * case-insensitive, checked again atomically with the save); otherwise the default scope
 * normalised, shared by everyone. The directory is created under `root` before the save.
 */
export async function provisionUser(store: Store, root: string, req: ProvisionRequest): Promise<UserRecord> {
  const settings = effectiveSettings(store.data().settings);
  const explicit = req.explicitScope !== undefined && req.explicitScope.trim() !== '';
  const { scope, derived } = resolveScope({
    scope: explicit ? (req.explicitScope ?? '') : req.user.scope,
    username: req.user.username,
    derive: settings.createUserDir && !explicit,
    basePath: settings.userHomeBasePath,
  });
  // Refuse before touching the disk, so a refused name leaves no stray directory behind.
  assertUsernameFree(store.data(), req.user.username);
  if (derived) assertScopeFree(store.data(), scope);
  await ensureHome(root, scope);
  return store.update((db) => insertUser(db, { ...req.user, scope }, { uniqueScope: derived }));
}
