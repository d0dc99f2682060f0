import { decide, NOT_ALLOWED } from '../../command/policy';
import { runProgram } from '../../command/process';
import { AppError } from '../../errors';
import type { GateFactory } from '../../fs/gates';
import { statTarget } from '../../fs/info';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';

/** What the command runner needs; app.ts composes it. */
export interface CommandDeps {
  store: Store;
  gates: GateFactory;
  /** Exec enabled on the server (--disableExec=false). */
  enabled: boolean;
  /** The server's environment, handed to the programs. */
  env: Readonly<Record<string, string | undefined>>;
  /** Which command-line dialect to parse (default: the host's). */
  platform?: NodeJS.Platform;
}

/** The client end of one runner session (the WebSocket, adapted by routes.ts). */
export interface CommandChannel {
  /** The first message that is not blank, trimmed; rejects when reading fails or the client leaves. */
  firstLine(): Promise<string>;
  /** Sends one text message; returns a promise only while the client is behind. */
  send(text: string): void | Promise<void>;
  /** Ends the session: 'done' closes the socket, 'failed' closes it with 1011 (api.md §3.18). */
  end(outcome: 'done' | 'failed'): void;
  /** Aborted when the client goes away. */
  readonly gone: AbortSignal;
}

/** What happened in a session, for the log. */
export type CommandReport =
  | { kind: 'no-command' }
  | { kind: 'refused'; line: string; message: string }
  | { kind: 'ran'; line: string; argv: string[]; ok: boolean; reason?: string | undefined };

/** The command runner of api.md §3.18 with the decisions of §14. */
export interface CommandService {
  /** The working directory of `/api/command{p}` through the path gate: 403/404, 400 for a file. */
  workingDirectory(user: UserRecord, raw: string): Promise<string>;
  /** Reads one command line, decides, runs it with its output streamed, and ends the session. */
  run(userId: number, cwd: string, channel: CommandChannel): Promise<CommandReport>;
}

async function workingDirectory(deps: CommandDeps, user: UserRecord, raw: string): Promise<string> {
  const gate = await deps.gates.forUser(user, deps.store.data().settings);
  const target = await gate.resolve(raw);
  const s = await statTarget(target);
  if (s.dangling) throw new AppError('not_found');
  if (!s.effective.isDirectory()) throw new AppError('bad_request', 'path is not a directory');
  // Where every symlink leads, already confined: the program starts exactly there.
  return target.resolved;
}

async function run(deps: CommandDeps, session: { userId: number; cwd: string }, channel: CommandChannel): Promise<CommandReport> {
  let line: string;
  try {
    line = await channel.firstLine();
  } catch {
    channel.end('failed');
    return { kind: 'no-command' };
  }
  // Permissions are read again now: they may have changed since the upgrade.
  const user = deps.store.data().users.find((u) => u.id === session.userId);
  const decision =
    deps.enabled && user?.perm.execute
      ? decide(line, { commands: user.commands, shell: deps.store.data().settings.shell, platform: deps.platform ?? process.platform })
      : ({ kind: 'refuse', message: NOT_ALLOWED } as const);
  if (decision.kind === 'refuse') {
    void channel.send(decision.message);
    channel.end('done');
    return { kind: 'refused', line, message: decision.message };
  }
  const result = await runProgram({ argv: decision.argv, cwd: session.cwd, env: deps.env, signal: channel.gone, onLine: (text) => channel.send(text) });
  channel.end(result.ok ? 'done' : 'failed');
  return { kind: 'ran', line, argv: decision.argv, ok: result.ok, reason: result.reason };
}

/** Creates the command runner service. */
export function createCommandService(deps: CommandDeps): CommandService {
  return {
    workingDirectory: (user, raw) => workingDirectory(deps, user, raw),
    run: (userId, cwd, channel) => run(deps, { userId, cwd }, channel),
  };
}
