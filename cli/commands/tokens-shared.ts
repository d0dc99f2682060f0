import type { ApiTokenRecord, Database, Permissions } from '../../server/state/schema';
import { UsageError } from '../io';

const PERM_NAMES: readonly (keyof Permissions)[] = ['admin', 'execute', 'create', 'rename', 'modify', 'delete', 'share', 'download'];

/** `--perm a,b`: the named permissions on, the others off; an empty list means the owner's own. */
export function permsFromList(names: readonly string[]): Partial<Permissions> | undefined {
  if (names.length === 0) return undefined;
  const perm: Partial<Permissions> = {};
  for (const name of names) {
    if (!(PERM_NAMES as readonly string[]).includes(name)) throw new UsageError(`unknown permission "${name}": expected some of ${PERM_NAMES.join(', ')}`);
    perm[name as keyof Permissions] = true;
  }
  return perm;
}

const day = (ms: number): string => (ms > 0 ? new Date(ms).toISOString().slice(0, 16).replace('T', ' ') : 'never');

/** Tokens as an aligned table (tokens ls): never the secret or its hash. */
export function formatTokens(db: Readonly<Database>, tokens: readonly ApiTokenRecord[]): string {
  const head = ['ID', 'User', 'Name', 'Created', 'Expires', 'Last used', 'Permissions'];
  const rows = tokens.map((t) => [
    t.id, db.users.find((u) => u.id === t.userId)?.username ?? String(t.userId), t.name, day(t.created), day(t.expires), day(t.lastUsed),
    PERM_NAMES.filter((p) => t.perm[p]).join(',') || '-',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return `${[line(head), ...rows.map(line)].join('\n')}\n`;
}
