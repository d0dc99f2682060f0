import type { Command } from './command';
import { configCatCommand } from './commands/config-cat';
import { configExportCommand } from './commands/config-export';
import { configImportCommand } from './commands/config-import';
import { configInitCommand } from './commands/config-init';
import { configSetCommand } from './commands/config-set';
import { hashCommand } from './commands/hash';
import { serveCommand } from './commands/serve';
import { versionCommand } from './commands/version';

/**
 * THE command table: every command of `filemgr`, by the words that select it. Help lists them
 * in this order. Add a command by adding its Command object here (one file per command in
 * cli/commands/).
 */
export const COMMANDS: readonly Command[] = [
  serveCommand,
  configInitCommand,
  configSetCommand,
  configCatCommand,
  configExportCommand,
  configImportCommand,
  hashCommand,
  versionCommand,
];
