import { chmod, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { exportConfig } from '../../server/setup/config-transfer';
import type { Command } from '../command';
import { openExisting } from '../database';
import { CliError } from '../io';
import { formatOf, serializeDocument } from '../json-yaml';
import { fsReason } from '../fs-errors';

/** `filemgr config export <file>`: filebrowser's export shape, JSON or YAML by extension. */
export const configExportCommand: Command = {
  name: 'config export',
  summary: 'Write the configuration (with the signing key) to a .json, .yaml or .yml file',
  description: 'The file has filebrowser\'s export shape, so filebrowser can import it too. It holds the\nsigning key: it is written with mode 0600.',
  usage: '<file>',
  args: { min: 1, max: 1 },
  flags: [],
  async run(ctx) {
    const path = resolve(ctx.io.cwd, ctx.args[0] ?? '');
    const format = formatOf(path);
    const store = await openExisting(ctx.database);
    const text = serializeDocument(format, exportConfig(store.data()));
    try {
      await writeFile(path, text, { mode: 0o600 });
      await chmod(path, 0o600);
    } catch (err) {
      throw new CliError(`cannot write ${path}: ${fsReason(err)}`);
    }
    return 0;
  },
};
