import type { ParsedArgs } from './args';
import type { ConfigFile } from './config-file';
import { envNames, type FlagDef, type FlagValue } from './flags';
import { UsageError, type Env } from './io';

/** Where a flag's value came from, highest precedence first. */
export type Source = 'flag' | 'env' | 'config' | 'default';

interface Entry {
  value: FlagValue;
  source: Source;
}

/** The resolved flags of one command: typed getters, and whether a value was set explicitly. */
export class FlagValues {
  constructor(private readonly entries: ReadonlyMap<string, Entry>) {}

  private entry(name: string): Entry {
    const e = this.entries.get(name);
    // A command asking for a flag it does not declare is a programming error, not user input.
    if (!e) throw new Error(`flag --${name} is not declared by this command`);
    return e;
  }

  string(name: string): string {
    return String(this.entry(name).value);
  }

  bool(name: string): boolean {
    return this.entry(name).value === true;
  }

  number(name: string): number {
    return Number(this.entry(name).value);
  }

  list(name: string): string[] {
    const v = this.entry(name).value;
    return Array.isArray(v) ? [...v] : [];
  }

  /** True when a flag, the environment or the config file gave the value (not the default). */
  isSet(name: string): boolean {
    return this.entry(name).source !== 'default';
  }

  source(name: string): Source {
    return this.entry(name).source;
  }

  /** True when the command declares this flag. */
  has(name: string): boolean {
    return this.entries.has(name);
  }
}

const TRUE = new Set(['true', '1', 't', 'yes', 'y', 'on']);
const FALSE = new Set(['false', '0', 'f', 'no', 'n', 'off']);

function parseBool(raw: string, where: string): boolean {
  const v = raw.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw new UsageError(`invalid value "${raw}" for ${where}: expected true or false`);
}

function parseInt10(def: FlagDef, raw: string, where: string): number {
  const v = raw.trim();
  if (!/^[+-]?\d+$/.test(v)) throw new UsageError(`invalid value "${raw}" for ${where}: expected a whole number`);
  const n = Number(v);
  if (def.min !== undefined && n < def.min) throw new UsageError(`${where} must be at least ${def.min} (got ${n})`);
  if (def.max !== undefined && n > def.max) throw new UsageError(`${where} must be at most ${def.max} (got ${n})`);
  return n;
}

/** "0o640", "0640" and "640" are all octal 640 (api.md §10.2 writes "0o640"). */
function parseMode(raw: string, where: string): number {
  const v = raw.trim().replace(/^0o/i, '');
  if (!/^[0-7]{1,4}$/.test(v)) throw new UsageError(`invalid value "${raw}" for ${where}: expected an octal mode such as 0o640`);
  return parseInt(v, 8);
}

function checkChoice(def: FlagDef, value: string, where: string): string {
  if (def.choices && !def.choices.includes(value)) {
    const allowed = def.choices.map((c) => (c === '' ? '""' : c)).join(', ');
    throw new UsageError(`invalid value "${value}" for ${where}: expected one of ${allowed}`);
  }
  return value;
}

/** Turns one textual value (command line, environment) into the flag's type. */
export function convertText(def: FlagDef, raw: string, where: string): FlagValue {
  switch (def.kind) {
    case 'bool': return parseBool(raw, where);
    case 'int': return parseInt10(def, raw, where);
    case 'mode': return parseMode(raw, where);
    case 'list': return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    case 'string': return checkChoice(def, raw, where);
  }
}

/** Turns a config-file value (JSON or YAML: any type) into the flag's type. */
export function convertConfigValue(def: FlagDef, raw: unknown, where: string): FlagValue {
  if (def.kind === 'list' && Array.isArray(raw)) return raw.map((item) => String(item)).filter((s) => s !== '');
  if (def.kind === 'bool' && typeof raw === 'boolean') return raw;
  // A number in a config file is taken as it is written: "socketPerm": 438 is 0666.
  if (def.kind === 'mode' && typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw <= 0o7777) return raw;
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return convertText(def, String(raw), where);
  throw new UsageError(`invalid value for ${where}: expected ${def.kind === 'list' ? 'a list' : 'a single value'}`);
}

function fromFlags(def: FlagDef, parsed: ParsedArgs): Entry | undefined {
  const raw = parsed.given.get(def.name);
  if (!raw) return undefined;
  if (def.kind !== 'list') return { value: convertText(def, raw[raw.length - 1] ?? '', `--${def.name}`), source: 'flag' };
  return { value: raw.flatMap((r) => convertText(def, r, `--${def.name}`) as string[]), source: 'flag' };
}

function fromEnv(def: FlagDef, env: Env): Entry | undefined {
  for (const name of envNames(def)) {
    const raw = env[name];
    // An empty variable counts as unset, as it does for filebrowser (viper).
    if (raw !== undefined && raw !== '') return { value: convertText(def, raw, name), source: 'env' };
  }
  return undefined;
}

function fromConfig(def: FlagDef, file: ConfigFile | undefined): Entry | undefined {
  if (!def.env || !file) return undefined;
  const key = [def.name, ...(def.aliases ?? []), ...(def.deprecated ?? [])].find((k) => Object.hasOwn(file.values, k));
  if (key === undefined) return undefined;
  return { value: convertConfigValue(def, file.values[key], `"${key}" in ${file.path}`), source: 'config' };
}

/** Resolves every flag of a command: flags > environment > config file > defaults. */
export function resolveFlags(defs: readonly FlagDef[], sources: { parsed: ParsedArgs; env: Env; file: ConfigFile | undefined }): FlagValues {
  const { parsed, env, file } = sources;
  const entries = new Map<string, Entry>();
  for (const def of defs) {
    const entry = fromFlags(def, parsed) ?? fromEnv(def, env) ?? fromConfig(def, file) ?? { value: structuredClone(def.default), source: 'default' as const };
    entries.set(def.name, entry);
  }
  return new FlagValues(entries);
}
