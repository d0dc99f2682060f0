import { execFile } from 'node:child_process';
import { AppError } from '../errors';
import type { NewUser } from './records';

/** The keys a hook may answer (api.md §2.4); anything else in its output is ignored. */
const HOOK_KEYS = new Set([
  'hook.action', 'user.scope', 'user.locale', 'user.viewMode', 'user.singleClick', 'user.redirectAfterCopyMove',
  'user.sorting.by', 'user.sorting.asc', 'user.commands', 'user.hideDotfiles', 'user.perm.admin',
  'user.perm.execute', 'user.perm.create', 'user.perm.rename', 'user.perm.modify', 'user.perm.delete',
  'user.perm.share', 'user.perm.download',
]);

const PERM_KEYS = ['admin', 'execute', 'create', 'rename', 'modify', 'delete', 'share', 'download'] as const;

const HOOK_TIMEOUT_MS = 60_000;

/** Parses `key=value` lines (split on the first `=`, both trimmed), keeping only known keys. */
export function parseHookOutput(stdout: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of stdout.replace(/\r\n/g, '\n').split('\n')) {
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim();
    if (HOOK_KEYS.has(key)) values.set(key, line.slice(eq + 1).trim());
  }
  return values;
}

/**
 * Runs the hook command: split on single spaces (no shell, no quoting); the credentials reach
 * it only as the USERNAME and PASSWORD environment variables, never in its arguments (CWE-78/88).
 * A failed start or a non-zero exit is a server error (500).
 */
export function runAuthHook(command: string, creds: { username: string; password: string }, env: Readonly<Record<string, string | undefined>>): Promise<Map<string, string>> {
  const [file = '', ...args] = command.split(' ').filter((w) => w !== '');
  if (file === '') return Promise.reject(new AppError('internal', 'auth hook command is empty'));
  return new Promise((resolve, reject) => {
    const opts = { env: { ...env, USERNAME: creds.username, PASSWORD: creds.password }, timeout: HOOK_TIMEOUT_MS, maxBuffer: 1024 * 1024 };
    execFile(file, args, opts, (err, stdout) => {
      if (err) reject(new AppError('internal', `auth hook failed: ${err.message}`));
      else resolve(parseHookOutput(stdout));
    });
  });
}

/** The hook's `hook.action`: block, pass or auth; anything else is a server error. */
export function hookAction(values: Map<string, string>): 'block' | 'pass' | 'auth' {
  const action = values.get('hook.action');
  if (action === 'block' || action === 'pass' || action === 'auth') return action;
  throw new AppError('internal', 'invalid hook action');
}

function flag(values: Map<string, string>, key: string, current: boolean): boolean {
  const v = values.get(key);
  return v === undefined ? current : v === 'true';
}

/**
 * Applies the hook's `user.*` values over `base` (api.md §2.4): booleans are true only for
 * "true", commands split on spaces (blank keeps the base), admin implies every permission, and
 * a hook user always has lockPassword.
 */
export function applyHookValues(base: NewUser, values: Map<string, string>): NewUser {
  const u: NewUser = { ...base, perm: { ...base.perm }, sorting: { ...base.sorting }, lockPassword: true };
  u.locale = values.get('user.locale') ?? u.locale;
  u.viewMode = values.get('user.viewMode') ?? u.viewMode;
  u.singleClick = flag(values, 'user.singleClick', u.singleClick);
  u.redirectAfterCopyMove = flag(values, 'user.redirectAfterCopyMove', u.redirectAfterCopyMove);
  u.hideDotfiles = flag(values, 'user.hideDotfiles', u.hideDotfiles);
  u.sorting.by = values.get('user.sorting.by') ?? u.sorting.by;
  u.sorting.asc = flag(values, 'user.sorting.asc', u.sorting.asc);
  const commands = values.get('user.commands')?.split(' ').filter((c) => c !== '');
  if (commands && commands.length > 0) u.commands = commands;
  for (const p of PERM_KEYS) u.perm[p] = flag(values, `user.perm.${p}`, u.perm[p]);
  if (u.perm.admin) for (const p of PERM_KEYS) u.perm[p] = true;
  return u;
}
