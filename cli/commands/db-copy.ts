import { resolve } from 'node:path';
import { copyInstallation } from '../../server/setup/copy-installation';
import { databaseKind, redactDatabase } from '../../server/state/database-kind';
import type { Command } from '../command';
import { UsageError } from '../io';

/** A file path against the working directory; a PostgreSQL URL as given. */
function place(value: string, cwd: string): string {
  return databaseKind(value) === 'postgres' ? value.trim() : resolve(cwd, value);
}

/** `filemgr db copy --from <file|postgres://…> --to <file|postgres://…>` (beyond.md §10). */
export const dbCopyCommand: Command = {
  name: 'db copy',
  summary: 'Copy an installation between a database file and PostgreSQL (either way)',
  description: [
    'Copies users, settings, shares and their counts, API tokens, two-factor secrets, WebDAV dead',
    'properties, recycle bin records and the activity log from --from to --to. Each is a database',
    'file or postgres://user:password@host:port/db. A target that already holds a state is left',
    'untouched unless --force, which replaces it. Stop the servers using the target first.',
  ].join('\n'),
  args: { min: 0, max: 0 },
  flags: [
    { name: 'from', kind: 'string', default: '', description: 'the installation to copy: a database file or postgres://…' },
    { name: 'to', kind: 'string', default: '', description: 'where to copy it: a database file or postgres://…' },
    { name: 'force', kind: 'bool', default: false, description: 'replace what the target holds' },
  ],
  async run(ctx) {
    const fromFlag = ctx.flags.string('from');
    const toFlag = ctx.flags.string('to');
    if (fromFlag === '' || toFlag === '') throw new UsageError('db copy needs --from and --to');
    const from = place(fromFlag, ctx.io.cwd);
    const to = place(toFlag, ctx.io.cwd);
    const n = await copyInstallation(from, to, { force: ctx.flags.bool('force') });
    ctx.io.stdout.write(
      `Copied ${n.users} users, ${n.shares} shares, ${n.tokens} API tokens, ${n.totp} two-factor secrets, ` +
        `${n.davProperties} paths with dead properties, ${n.trash} recycle bin records and ${n.activity} activity entries ` +
        `from ${redactDatabase(from)} to ${redactDatabase(to)}\n`,
    );
    return 0;
  },
};
