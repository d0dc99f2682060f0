import type { Command } from './command';
import { configCatCommand } from './commands/config-cat';
import { configExportCommand } from './commands/config-export';
import { configImportCommand } from './commands/config-import';
import { configInitCommand } from './commands/config-init';
import { configSetCommand } from './commands/config-set';
import { hashCommand } from './commands/hash';
import { serveCommand } from './commands/serve';
import { versionCommand } from './commands/version';
import { cmdsAddCommand } from './commands/cmds-add';
import { cmdsLsCommand } from './commands/cmds-ls';
import { cmdsRmCommand } from './commands/cmds-rm';
import { rulesAddCommand } from './commands/rules-add';
import { rulesLsCommand } from './commands/rules-ls';
import { rulesRmCommand } from './commands/rules-rm';
import { usersAddCommand } from './commands/users-add';
import { usersExportCommand } from './commands/users-export';
import { usersFindCommand } from './commands/users-find';
import { usersImportCommand } from './commands/users-import';
import { usersLsCommand } from './commands/users-ls';
import { usersRmCommand } from './commands/users-rm';
import { usersUpdateCommand } from './commands/users-update';
import { tokensAddCommand } from './commands/tokens-add';
import { tokensLsCommand } from './commands/tokens-ls';
import { tokensRmCommand } from './commands/tokens-rm';
import { dbCopyCommand } from './commands/db-copy';

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
  usersAddCommand,
  usersLsCommand,
  usersFindCommand,
  usersUpdateCommand,
  usersRmCommand,
  usersImportCommand,
  usersExportCommand,
  tokensAddCommand,
  tokensLsCommand,
  tokensRmCommand,
  rulesLsCommand,
  rulesAddCommand,
  rulesRmCommand,
  cmdsLsCommand,
  cmdsAddCommand,
  cmdsRmCommand,
  dbCopyCommand,
  hashCommand,
  versionCommand,
];
