// The wire shapes web/api returns, in one place. They mirror api.md §2.2 (token user), §4.3
// (FileInfo/Listing) and §4.4 (DiskUsage) field for field; server/contract/ holds only the page
// configuration so far, and these become `import type` re-exports once it holds these shapes.

export interface Permissions {
  admin: boolean;
  execute: boolean;
  create: boolean;
  rename: boolean;
  modify: boolean;
  delete: boolean;
  share: boolean;
  download: boolean;
}

/** The `user` claim of the token (api.md §2.2). */
export interface TokenUser {
  id: number;
  username: string;
  locale: string;
  viewMode: string;
  singleClick: boolean;
  redirectAfterCopyMove: boolean;
  perm: Permissions;
  commands: string[];
  lockPassword: boolean;
  hideDotfiles: boolean;
  dateFormat: boolean;
  aceEditorTheme: string;
}

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
