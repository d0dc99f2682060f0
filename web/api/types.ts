// The wire shapes web/api returns, all from server/contract/ (never hand-written here), plus the
// narrowings the UI works with.
import type { FileInfo, Resource } from '@contract/resource';
import type { UserView } from '@contract/user';

export type { DiskUsage, FileInfo, Resource } from '@contract/resource';
export type { Share } from '@contract/share';

/** The `user` claim of the token (api.md §2.2): the API's user without the fields a token omits. */
export type TokenUser = Omit<UserView, 'password' | 'scope' | 'sorting' | 'rules' | 'quota'>;

/** A folder's answer: a Resource whose listing fields are present (api.md §4.3). */
export type Listing = Resource & { items: FileInfo[]; numDirs: number; numFiles: number };

/** A shared file or folder (api.md §3.16); `token` authorises downloads of protected links. */
export type PublicResource = Resource;
