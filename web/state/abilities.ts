import type { PageConfig } from '@contract/page-config';
import { atom } from 'jotai';
import type { TokenUser } from '../api/types';
import { configAtom } from './config';
import { userAtom } from './session';

/** Who may open a page: anyone, only signed-out visitors, signed-in users, or by permission. */
export type Access = 'public' | 'guest' | 'user' | 'share' | 'admin';

/**
 * What the signed-in user may do, each decided here once from the permissions and the page
 * configuration (product.md §2, §5, §6); signed out, no permission is held.
 */
export interface Abilities {
  /** Download files and folders. */
  download: boolean;
  /** Create a share link: it needs the share and the download permission. */
  share: boolean;
  rename: boolean;
  /** Copy (and paste a copied clipboard): the create permission. */
  copy: boolean;
  /** Move, by prompt, paste of a cut clipboard or drag: the rename permission. */
  move: boolean;
  delete: boolean;
  /** New files and folders, uploads. */
  create: boolean;
  /** Save a text file in the editor. */
  modify: boolean;
  /** The shell panel: the command runner enabled and the execute permission. */
  shell: boolean;
  /** The shares settings page. */
  shares: boolean;
  admin: boolean;
  /** Change one's own password: there is a login page and the password is not locked. */
  changePassword: boolean;
}

/** The abilities of `user` (null: signed out) under `config`. */
export function abilitiesOf(user: TokenUser | null, config: PageConfig): Abilities {
  const perm = user?.perm;
  const has = (key: keyof NonNullable<typeof perm>): boolean => perm?.[key] ?? false;
  return {
    download: has('download'),
    share: has('share') && has('download'),
    rename: has('rename'),
    copy: has('create'),
    move: has('rename'),
    delete: has('delete'),
    create: has('create'),
    modify: has('modify'),
    shell: config.EnableExec && has('execute'),
    shares: has('share'),
    admin: has('admin'),
    // Without a login page (noauth, proxy) there is no password to change.
    changePassword: !(user?.lockPassword ?? false) && config.LoginPage,
  };
}

/** What the signed-in user may do now. */
export const abilitiesAtom = atom((get) => abilitiesOf(get(userAtom), get(configAtom)));

/** Whether a signed-in user with `abilities` may open a page of `access`. */
export function mayOpen(abilities: Abilities, access: Access): boolean {
  if (access === 'share') return abilities.shares;
  if (access === 'admin') return abilities.admin;
  return true;
}
