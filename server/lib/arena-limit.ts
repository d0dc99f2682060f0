/**
 * glibc's malloc gives every thread that allocates an arena of its own (up to 8 per core) and
 * keeps what a finished thread's arena held: the search index's builder worker left about 5 MB
 * resident for good, the thread pool's arenas grow under load. `MALLOC_ARENA_MAX=2` bounds them,
 * but glibc reads it only when the process starts, so the executable runs itself again, once,
 * with it set (the same process: execve keeps the pid and the standard streams). Nothing happens
 * when the environment sets it already (the systemd unit does), off Linux, or where Node lacks
 * process.execve. The cost is one more Node start-up, before the server's code is even compiled.
 */
/** process.execve (Node 22.15+, experimental), which this @types/node does not declare yet. */
type Execve = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;

export function withArenaLimit(env: NodeJS.ProcessEnv = process.env): void {
  const execve = (process as { execve?: Execve }).execve;
  if (process.platform !== 'linux' || env.MALLOC_ARENA_MAX !== undefined || typeof execve !== 'function') return;
  // A single executable application's argv repeats the executable at [1]; it does so again.
  execve.call(process, process.execPath, [process.argv0, ...process.argv.slice(2)], { ...env, MALLOC_ARENA_MAX: '2' });
}
