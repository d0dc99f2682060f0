import { spawn } from 'node:child_process';
import { AppError } from '../errors';
import { splitCommand } from './split-command';

/** The file events that have hooks (api.md §9). */
export type HookEvent = 'upload' | 'save' | 'delete' | 'copy' | 'rename';

/** What a hook is told about the operation; these reach the program as environment variables. */
export interface HookContext {
  /** Real path of the source (FILE). */
  file: string;
  /** Real path of the destination, or of the user's root when there is none (DESTINATION). */
  destination: string;
  /** The user's stored scope string (SCOPE). */
  scope: string;
  username: string;
}

export interface HookConfig {
  /** Exec enabled on the server (--disableExec=false); otherwise hooks never run. */
  enabled: boolean;
  /** settings.commands and settings.shell, read at each operation (they can change at run time). */
  settings: () => { commands: Readonly<Record<string, readonly string[]>>; shell: readonly string[] };
  /** The server's environment, handed on to the programs. */
  env: Readonly<Record<string, string | undefined>>;
}

/** Runs an operation between its before_ and after_ hooks. */
export interface HookRunner {
  /**
   * Runs every `before_<evt>` command (a failure stops everything, 500), then `op`, then every
   * `after_<evt>` command (a failure is the request's error although `op` happened).
   */
  around<T>(evt: HookEvent, ctx: HookContext, op: () => Promise<T>): Promise<T>;
}

interface Invocation {
  argv: string[];
  env: Record<string, string | undefined>;
  background: boolean;
}

/** `$VAR` and `${VAR}` in one argument, from `vars` (unknown names expand to ''). */
export function expandVars(arg: string, vars: Readonly<Record<string, string | undefined>>): string {
  return arg.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, braced: string | undefined, bare: string | undefined) => vars[braced ?? bare ?? ''] ?? '');
}

/**
 * How one configured command line runs. With a shell configured the line reaches the shell
 * untouched and the values travel only in the environment, so a file named `a;touch X;.txt` is
 * data, never code (api.md §14). Without a shell the line is split into words and `$VAR` is
 * expanded inside single arguments only (never argv[0]).
 */
export function invocationOf(line: string, shell: readonly string[], env: Record<string, string | undefined>): Invocation {
  const trimmed = line.trim();
  const background = trimmed.endsWith('&');
  const text = background ? trimmed.slice(0, -1).trim() : trimmed;
  if (shell.length > 0) return { argv: [...shell, text], env, background };
  const { command, args } = splitCommand(text);
  return { argv: [command, ...args.map((a) => expandVars(a, env))], env, background };
}

function execute(inv: Invocation): Promise<void> {
  const [program, ...args] = inv.argv;
  return new Promise((resolve, reject) => {
    const child = spawn(program ?? '', args, { env: inv.env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', (err) => (inv.background ? undefined : reject(err)));
    if (inv.background) {
      child.unref();
      resolve();
      return;
    }
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`hook ${program ?? ''} failed: ${signal ?? `exit ${code ?? '?'}`}`));
    });
  });
}

async function runAll(config: HookConfig, trigger: string, ctx: HookContext): Promise<void> {
  const { commands, shell } = config.settings();
  const list = commands[trigger] ?? [];
  const env = {
    ...config.env,
    FILE: ctx.file,
    SCOPE: ctx.scope,
    TRIGGER: trigger,
    USERNAME: ctx.username,
    DESTINATION: ctx.destination,
  };
  for (const line of list) {
    if (line.trim() === '') continue;
    try {
      await execute(invocationOf(line, shell, env));
    } catch (err) {
      throw new AppError('internal', `${trigger}: ${(err as Error).message}`);
    }
  }
}

/** Creates the hook runner; with exec disabled it only runs the operations. */
export function createHookRunner(config: HookConfig): HookRunner {
  return {
    async around(evt, ctx, op) {
      if (!config.enabled) return op();
      await runAll(config, `before_${evt}`, ctx);
      const result = await op();
      await runAll(config, `after_${evt}`, ctx);
      return result;
    },
  };
}
