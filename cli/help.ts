import type { Command } from './command';
import { envNames, type FlagDef } from './flags';

const TYPE_HINT: Record<FlagDef['kind'], string> = { string: 'string', int: 'int', mode: 'mode', list: 'list', bool: '' };

/** How a default is shown in help: quoted strings, octal modes, lists in brackets. */
export function showDefault(def: FlagDef): string {
  const v = def.default;
  if (def.kind === 'mode' && typeof v === 'number') return `0o${v.toString(8)}`;
  if (Array.isArray(v)) return `[${v.join(',')}]`;
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function flagLines(def: FlagDef): string[] {
  const head = `${def.short ? `-${def.short}, ` : '    '}--${def.name}${TYPE_HINT[def.kind] ? ` ${TYPE_HINT[def.kind]}` : ''}`;
  const envs = envNames(def);
  const fb = envs.find((n) => n.startsWith('FB_'));
  const env = envs.length > 0 ? `env ${envs[0]}${fb ? ` or ${fb}` : ''}` : 'command line only';
  const choices = def.choices ? `; one of ${def.choices.map((c) => (c === '' ? '""' : c)).join('|')}` : '';
  const notes = [`default ${showDefault(def)}`, env, ...(def.deprecated ?? []).map((d) => `old spelling --${d}`)];
  return [`  ${head.padEnd(40)} ${def.description}${choices}`, `  ${''.padEnd(40)} ${notes.join('; ')}`];
}

function commandLine(cmd: Command): string {
  return ['filemgr', cmd.name, cmd.usage, '[flags]'].filter((s) => s).join(' ');
}

function subcommandList(commands: readonly Command[]): string[] {
  const width = Math.max(...commands.map((c) => c.name.length));
  return commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
}

const FOOTER = [
  'Every FILEMGR_* variable is also read under its FB_* name, so filebrowser deployments move over',
  'unchanged. Precedence: flags > environment > config file > values stored in the database > defaults.',
];

/** The full help of one command: usage, description, subcommands (for the root), every flag. */
export function commandHelp(cmd: Command, flags: readonly FlagDef[], table: readonly Command[]): string {
  const lines = [cmd.summary, '', 'Usage:', `  ${commandLine(cmd)}`];
  if (cmd.description) lines.push('', cmd.description);
  if (cmd.name === '') lines.push('', 'Commands:', ...subcommandList(table.filter((c) => c.name !== '')));
  lines.push('', 'Flags:', ...flags.flatMap(flagLines), '', ...FOOTER);
  if (cmd.name === '') lines.push('Run "filemgr <command> --help" for the flags of a command.');
  return `${lines.join('\n')}\n`;
}

/** The help of a command group (`filemgr config`): its subcommands. */
export function groupHelp(group: string, table: readonly Command[]): string {
  const members = table.filter((c) => c.name.startsWith(`${group} `));
  const lines = [`Usage:\n  filemgr ${group} <command> [flags]`, '', 'Commands:', ...subcommandList(members)];
  lines.push('', `Run "filemgr ${group} <command> --help" for the flags of a command.`);
  return `${lines.join('\n')}\n`;
}
