import type { Permissions, UserDefaults } from '../server/state/schema';
import type { FlagValues } from './values';

type Setter = (u: UserDefaults, f: FlagValues) => void;

const PERMS: (keyof Permissions)[] = ['admin', 'execute', 'create', 'rename', 'modify', 'delete', 'share', 'download'];

/** How each user flag of flags.ts (USER_FLAGS) lands in a user or in the user defaults. */
const SETTERS: Record<string, Setter> = {
  ...Object.fromEntries(PERMS.map((p): [string, Setter] => [`perm.${p}`, (u, f) => { u.perm[p] = f.bool(`perm.${p}`); }])),
  'sorting.by': (u, f) => { u.sorting.by = f.string('sorting.by'); },
  'sorting.asc': (u, f) => { u.sorting.asc = f.bool('sorting.asc'); },
  commands: (u, f) => { u.commands = f.list('commands'); },
  scope: (u, f) => { u.scope = f.string('scope'); },
  locale: (u, f) => { u.locale = f.string('locale'); },
  viewMode: (u, f) => { u.viewMode = f.string('viewMode'); },
  singleClick: (u, f) => { u.singleClick = f.bool('singleClick'); },
  redirectAfterCopyMove: (u, f) => { u.redirectAfterCopyMove = f.bool('redirectAfterCopyMove'); },
  dateFormat: (u, f) => { u.dateFormat = f.bool('dateFormat'); },
  hideDotfiles: (u, f) => { u.hideDotfiles = f.bool('hideDotfiles'); },
  aceEditorTheme: (u, f) => { u.aceEditorTheme = f.string('aceEditorTheme'); },
};

/**
 * Writes the user flags (perm.*, sorting.*, scope, locale, viewMode ...) into a user or the
 * user defaults. With `onlySet` only flags given explicitly change anything (config set,
 * users update); without, every flag applies with its default (config init, users add).
 * lockPassword is not a default and is left to the caller.
 */
export function applyUserFlags(target: UserDefaults, flags: FlagValues, onlySet: boolean): void {
  for (const [name, set] of Object.entries(SETTERS)) {
    if (flags.has(name) && (!onlySet || flags.isSet(name))) set(target, flags);
  }
}
