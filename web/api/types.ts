// The wire shapes web/api returns, in one place. Users come from server/contract/; FileInfo,
// Listing (api.md §4.3), DiskUsage and Share (§4.4) are not in server/contract/ yet and mirror the
// spec field for field here, to be swapped for `import type` when those contracts land.
import type { UserView } from '@contract/user';

/** The `user` claim of the token (api.md §2.2): the API's user without the fields a token omits. */
export type TokenUser = Omit<UserView, 'password' | 'scope' | 'sorting' | 'rules'>;

/** A file or folder as GET /api/resources answers it (api.md §4.3). */
export interface FileInfo {
  path: string;
  name: string;
  size: number;
  extension: string;
  modified: string;
  mode: number;
  isDir: boolean;
  isSymlink: boolean;
  type: string;
  content?: string;
  subtitles?: string[];
}

/** A folder: its own FileInfo plus its items (api.md §4.3). */
export interface Listing extends FileInfo {
  items: FileInfo[];
  numDirs: number;
  numFiles: number;
  sorting: { by: string; asc: boolean };
}

export type Resource = FileInfo | Listing;

/** GET /api/usage (api.md §3.10). */
export interface DiskUsage {
  total: number;
  used: number;
}

/** A share link as the API shows it (api.md §3.15): never its password hash or token. */
export interface Share {
  hash: string;
  path: string;
  userID: number;
  /** Unix seconds; 0 = permanent. */
  expire: number;
  hasPassword: boolean;
}

/** A shared file or folder (api.md §3.16); `token` authorises downloads of protected links. */
export type PublicResource = Resource & { token?: string };
