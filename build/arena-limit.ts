/**
 * glibc's malloc gives every thread that allocates an arena of its own (up to 8 per core) and
 * keeps what a finished thread's arena held: the search index's builder worker left about 5 MB
 * resident for good, the thread pool's arenas grow under load. `MALLOC_ARENA_MAX=2` bounds them,
 * but glibc reads it only when the process starts, so the server runs itself again, once, with
 * it set (the same process: execve keeps the pid and the standard streams). The cost is one more
 * Node start-up (40-60 ms), before the server's code is even compiled: worth it for a server,
 * not for a CLI command that ends in a moment. Nothing happens when the environment sets the
 * variable already (the systemd unit does), off Linux, or where Node lacks process.execve.
 */

/** The first words of the CLI's commands other than serving (cli/command-table.ts; a test checks). */
export const CLI_WORDS: ReadonlySet<string> = new Set(['config', 'users', 'tokens', 'rules', 'cmds', 'db', 'hash', 'version', 'help', '--help', '-h']);

/**
 * Whether `args` (after the executable) start the server: no command word and no help among
 * them. A flag's value that happens to be such a word only costs the server the arena limit.
 */
export function startsServer(args: readonly string[]): boolean {
  return !args.some((arg) => CLI_WORDS.has(arg));
}

/** process.execve (Node 22.15+, experimental), which this @types/node does not declare yet. */
type Execve = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;

export function withArenaLimit(env: NodeJS.ProcessEnv = process.env): void {
  const execve = (process as { execve?: Execve }).execve;
  if (process.platform !== 'linux' || env.MALLOC_ARENA_MAX !== undefined || typeof execve !== 'function') return;
  // A single executable application's argv repeats the executable at [1]; it does so again.
  const args = process.argv.slice(2);
  if (!startsServer(args)) return;
  execve.call(process, process.execPath, [process.argv0, ...args], { ...env, MALLOC_ARENA_MAX: '2' });
}
