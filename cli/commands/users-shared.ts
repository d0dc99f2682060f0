import { resolve } from 'node:path';
import { AppError } from '../../server/errors';
import type { UserRecord } from '../../server/state/schema';
import type { Store } from '../../server/state/store';
import type { CommandContext } from '../command';
import { parseSizeText } from '../../server/contract/size-text';
import { LOCK_PASSWORD_FLAG, QUOTA_FLAG, USER_FLAGS, type FlagDef } from '../flags';
import { CliError } from '../io';

/** The user flags of users add/update: the defaults' flags plus --lockPassword. */
export const USER_COMMAND_FLAGS: readonly FlagDef[] = [...USER_FLAGS, LOCK_PASSWORD_FLAG, QUOTA_FLAG];

/** The bytes of --quota ("500 MB", "10GiB", "0"), or a one-line error naming what is accepted. */
export function quotaArg(value: string): number {
  const bytes = parseSizeText(value);
  if (bytes === null) throw new CliError(`--quota must be a size such as "500 MB" or "10GiB" (0 = no quota), got ${JSON.stringify(value)}`);
  return bytes;
}

/** Runs a service call, turning its AppError (400/404/409...) into a one-line CLI error. */
export async function serviceCall<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) throw new CliError(err.message === err.code ? `refused: ${err.code.replace(/_/g, ' ')}` : err.message);
    throw err;
  }
}

/** The served root stored in the database, resolved like serve resolves it. */
export function storedRoot(store: Store, ctx: CommandContext): string {
  return resolve(ctx.io.cwd, store.data().server.root || '.');
}

const yes = (b: boolean): string => (b ? 'yes' : 'no');

/** The users as an aligned table (users ls, find, add, update); the quota in bytes, 0 = none. */
export function formatUsers(users: readonly UserRecord[]): string {
  const head = ['ID', 'Username', 'Scope', 'Locale', 'V. Mode', 'S.Click', 'Admin', 'Execute', 'Create', 'Rename', 'Modify', 'Delete', 'Share', 'Download', 'Pwd Lock', 'Quota'];
  const rows = users.map((u) => [
    String(u.id), u.username, u.scope, u.locale, u.viewMode, yes(u.singleClick), yes(u.perm.admin), yes(u.perm.execute),
    yes(u.perm.create), yes(u.perm.rename), yes(u.perm.modify), yes(u.perm.delete), yes(u.perm.share), yes(u.perm.download), yes(u.lockPassword), String(u.quota ?? 0),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return `${[line(head), ...rows.map(line)].join('\n')}\n`;
}

/** Parses a 0-based index argument. */
export function indexArg(value: string | undefined, what: string): number {
  if (value === undefined || !/^\d+$/.test(value)) throw new CliError(`${what} must be a whole number, got ${JSON.stringify(value ?? '')}`);
  return Number(value);
}
