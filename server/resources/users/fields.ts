import type { UserInput } from '../../contract/user';
import { fullPerms } from '../../accounts/records';
import { AppError } from '../../errors';
import type { UserRecord } from '../../state/schema';

/** The user fields PUT /api/users may name in `which` (api.md §3.2). */
export const USER_FIELDS = [
  'username', 'password', 'scope', 'locale', 'lockPassword', 'viewMode', 'singleClick', 'redirectAfterCopyMove',
  'perm', 'commands', 'sorting', 'rules', 'hideDotfiles', 'dateFormat', 'aceEditorTheme', 'quota',
] as const;

export type UserField = (typeof USER_FIELDS)[number];

/** Fields only an admin may change (permission-elevation fix #1195). */
export const ADMIN_ONLY_FIELDS: ReadonlySet<UserField> = new Set(['username', 'scope', 'lockPassword', 'perm', 'commands', 'rules', 'quota']);

/** Fields whose change needs the caller's current password under json auth (lockPassword included, api.md §13.9). */
const SENSITIVE = new Set(['all', 'username', 'password', 'scope', 'commands', 'perm', 'lockpassword']);

/** Whether `which` names a field that needs the current password. */
export function needsCurrentPassword(which: readonly string[]): boolean {
  return which.some((w) => SENSITIVE.has(w.toLowerCase()));
}

/** Whether `which` names `name` (case-insensitively). */
export function names(which: readonly string[], name: string): boolean {
  return which.some((w) => w.toLowerCase() === name.toLowerCase());
}

/**
 * Resolves `which` names as upstream does (first letter title-cased, then a User field name):
 * `viewMode` and `ViewMode` work. Unknown names (`id`, `foo`) answer 400, never 500 (api.md §14).
 */
export function resolveFields(which: readonly string[]): UserField[] {
  return which.map((w) => {
    const field = USER_FIELDS.find((f) => f.charAt(0).toUpperCase() + f.slice(1) === w.charAt(0).toUpperCase() + w.slice(1));
    if (!field) throw new AppError('bad_request', `invalid field: ${w}`);
    return field;
  });
}

type Writable = Omit<UserRecord, 'id' | 'password' | 'sessionEpoch'>;

/** The value of one field of `data` as Go would decode it: a missing field is its zero value. */
function valueOf(data: UserInput, field: Exclude<UserField, 'password'>): Writable[typeof field] {
  switch (field) {
    case 'perm':
      return fullPerms(data.perm);
    case 'sorting':
      return { by: data.sorting?.by ?? '', asc: data.sorting?.asc ?? false };
    case 'commands':
      return data.commands ?? [];
    case 'rules':
      return data.rules ?? [];
    case 'quota':
      return data.quota ?? 0;
    case 'lockPassword':
    case 'singleClick':
    case 'redirectAfterCopyMove':
    case 'hideDotfiles':
    case 'dateFormat':
      return data[field] ?? false;
    default:
      return data[field] ?? '';
  }
}

/** Writes the listed fields of `data` into `user` (the password is handled by the caller). */
export function applyFields(user: UserRecord, data: UserInput, fields: readonly UserField[]): UserRecord {
  const out: UserRecord = structuredClone(user);
  const target = out as unknown as Record<string, unknown>;
  for (const field of fields) {
    if (field !== 'password') target[field] = valueOf(data, field);
  }
  return out;
}

/** Every writable field (the `which: ["all"]` replacement). */
export const ALL_FIELDS: readonly UserField[] = USER_FIELDS;
