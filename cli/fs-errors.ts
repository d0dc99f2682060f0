import { userInfo } from 'node:os';

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'it does not exist',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory',
  EEXIST: 'it already exists',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EMFILE: 'too many files are open',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'the path has too many symbolic links',
  EBUSY: 'it is in use',
};

/** "bob, uid 1000": who the process runs as, for permission messages. */
function whoAmI(): string {
  const uid = process.getuid?.();
  try {
    const name = userInfo().username;
    return uid === undefined ? name : `${name}, uid ${uid}`;
  } catch {
    return uid === undefined ? 'this user' : `uid ${uid}`;
  }
}

/**
 * Why a file-system call failed, as a clause an admin can act on ("permission denied: filemgr
 * runs as bob, uid 1000, ..."), instead of the bare errno code.
 */
export function fsReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === undefined) return message;
  if (code === 'EACCES' || code === 'EPERM') {
    return `permission denied (${code}); filemgr runs as ${whoAmI()}, which may not access it or a directory above it: run filemgr as the user that owns it, or change its owner or mode`;
  }
  // Node's own text sits between the code and the call: "EIO: i/o error, read".
  const reason = REASONS[code] ?? /^[A-Z0-9]+: ([^,]+)/.exec(message)?.[1] ?? 'failed';
  return `${reason} (${code})`;
}

const VERBS: Readonly<Record<string, string>> = {
  open: 'open', read: 'read', write: 'write', fsync: 'write', rename: 'replace', unlink: 'delete', rmdir: 'delete',
  mkdir: 'create the directory', mkdtemp: 'create a file in', stat: 'look at', lstat: 'look at', scandir: 'list',
  chmod: 'change the mode of', access: 'access', copyfile: 'copy', realpath: 'look at',
};

/** A Node file-system error that no command turned into its own message, as one sentence; undefined for other errors. */
export function fsErrorSentence(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException | undefined;
  if (!(err instanceof Error) || typeof e?.code !== 'string' || typeof e.syscall !== 'string') return undefined;
  const verb = VERBS[e.syscall] ?? e.syscall;
  // A rename names its destination: the file the admin knows, not a temporary sibling.
  const target = (e as { dest?: unknown }).dest ?? e.path;
  return typeof target === 'string' ? `cannot ${verb} ${target}: ${fsReason(err)}` : `cannot ${verb}: ${fsReason(err)}`;
}
