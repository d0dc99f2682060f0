import { mkdir, stat } from 'node:fs/promises';
import { buildApp } from '../../server/app';
import { defaultAssets } from '../../server/lib/assets';
import { hashPassword } from '../../server/accounts/password';
import { firstRunDatabase, isBcryptHash, randomPassword } from '../../server/setup/first-run';
import { startupWarnings } from '../../server/setup/warnings';
import { listen, loadTlsFiles, shutdown } from '../../server/start';
import { redactIn } from '../../server/state/database-kind';
import { defaultServerSettings } from '../../server/state/initial';
import type { ServerSettings } from '../../server/state/schema';
import type { Store } from '../../server/state/store';
import { VERSION } from '../../server/version';
import type { Command, CommandContext } from '../command';
import { besideDatabase, databaseExists, openExisting, openOrCreate } from '../database';
import { announceFirstPassword } from '../first-password';
import { SERVER_FLAGS, SERVE_ONLY_FLAGS } from '../flags';
import { CliError, UsageError, type CliIO } from '../io';
import { logFormatOf, logTarget } from '../logger';
import { resolveServerConfig, type ResolvedServer } from '../server-config';
import { applyServerFlags } from '../server-settings';
import { fsReason } from '../fs-errors';

async function checkRoot(root: string): Promise<void> {
  try {
    if (!(await stat(root)).isDirectory()) throw new CliError(`root ${root} is not a directory`);
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? `root ${root} does not exist` : `cannot use root ${root}: ${fsReason(err)}`);
  }
}

function firstRunServer(ctx: CommandContext): ServerSettings {
  const server = defaultServerSettings();
  applyServerFlags(server, ctx.flags, { onlySet: false, cwd: ctx.io.cwd });
  return server;
}

/** Opens the database; on first run creates it (quick setup) after checking the root. */
async function openDatabase(ctx: CommandContext): Promise<{ store: Store; password?: string }> {
  const hash = ctx.flags.string('password');
  if (hash !== '' && !isBcryptHash(hash)) {
    throw new UsageError('--password takes a bcrypt hash (make one with filemgr hash <password>), not the password itself');
  }
  if (await databaseExists(ctx.database)) return { store: await openExisting(ctx.database) };
  const server = firstRunServer(ctx);
  await checkRoot(resolveServerConfig(ctx.flags, server, { cwd: ctx.io.cwd, database: ctx.database }).config.root);
  const password = hash === '' ? randomPassword() : undefined;
  const passwordHash = password === undefined ? hash : await hashPassword(password);
  const { store, created } = await openOrCreate(ctx.database, () => firstRunDatabase({
    authMethod: ctx.flags.bool('noauth') ? 'noauth' : 'json',
    username: ctx.flags.string('username'),
    passwordHash,
    server,
  }), (error) => {
    // PostgreSQL's LISTEN connection (it reconnects by itself); the URL's password never shows.
    ctx.io.stderr.write(`filemgr: state database: ${redactIn(error instanceof Error ? error.message : String(error), ctx.database)}\n`);
  });
  return created && password !== undefined ? { store, password } : { store };
}

/** Resolves with the first stop signal; a second one cuts open connections at once. */
function stopRequested(io: CliIO, onSecond: () => void): Promise<string> {
  return new Promise((resolve) => {
    const off = io.onStop((signal) => {
      off();
      io.onStop(onSecond);
      resolve(signal);
    });
  });
}

async function prepareCacheDir(dir: string): Promise<void> {
  if (dir === '') return;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new CliError(`cannot create the cache directory ${dir}: ${fsReason(err)}`);
  }
}

async function runServer(ctx: CommandContext, store: Store, resolved: ResolvedServer): Promise<number> {
  const { config, target } = resolved;
  const https = target.kind === 'tcp' && target.tls ? await loadTlsFiles(config.cert, config.key) : undefined;
  const log = logTarget(config.log, ctx.io, logFormatOf(ctx.flags.string('logFormat')));
  try {
    // The command runner and event hooks run programs with the server's environment (api.md §3.18
    // step 8, §9): without it they would start with an empty one and find nothing through PATH.
    const app = await buildApp({ store, config, assets: defaultAssets(), logger: log.options, env: ctx.env, ...(https ? { https } : {}) });
    const stop = stopRequested(ctx.io, () => app.server.closeAllConnections());
    const warnings = [...resolved.warnings, ...startupWarnings(config, store.data().settings)];
    for (const w of warnings) app.log.warn(w);
    const where = await listen(app, target).catch(async (err: unknown) => {
      await app.close();
      throw err;
    });
    app.log.info(`filemgr v${VERSION} listening on ${where}`);
    const signal = await stop;
    app.log.info(`${signal} received: finishing requests in flight, then stopping`);
    if (!(await shutdown(app))) app.log.warn('requests still running after 10 s were cut off');
    return 0;
  } finally {
    log.close();
  }
}

async function serve(ctx: CommandContext): Promise<number> {
  const { store, password } = await openDatabase(ctx);
  try {
    // With PostgreSQL there is no file to put the first password beside: it goes to the working directory.
    if (password !== undefined) await announceFirstPassword(ctx.io, { username: ctx.flags.string('username'), password, database: besideDatabase(ctx.database, ctx.io.cwd) });
    const resolved = resolveServerConfig(ctx.flags, store.data().server, { cwd: ctx.io.cwd, database: ctx.database });
    await checkRoot(resolved.config.root);
    await prepareCacheDir(resolved.config.cacheDir);
    return await runServer(ctx, store, resolved);
  } finally {
    await store.close?.();
  }
}

/** `filemgr` with no command: serve. */
export const serveCommand: Command = {
  name: '',
  summary: 'filemgr: a web file manager for one directory tree. With no command, it serves.',
  description: [
    'On first run (no database yet) it creates the database with a fresh signing key and the first',
    'user (--username, admin by default) with every permission. Its password is --password (a bcrypt',
    'hash) or, when empty, a random one: printed once when stdout is a terminal, otherwise written',
    'to <database>.admin-password (mode 0600) with only that path logged. The first run stores the',
    'quick-setup settings (hideLoginButton true; user defaults viewMode mosaic, redirectAfterCopyMove',
    'true) where config init stores false, list and false. SIGTERM or SIGINT stop the server after',
    'the requests in flight finish (at most 10 s).',
  ].join('\n'),
  args: { min: 0, max: 0 },
  flags: [...SERVER_FLAGS, ...SERVE_ONLY_FLAGS],
  run: serve,
};
