import type { FlagDef } from './flags';
import { UsageError } from './io';
import { closest } from './suggest';

/** What the command line said: raw flag values by canonical name, positionals, notices. */
export interface ParsedArgs {
  /** Raw values in the order given (a repeated flag has several). Booleans are "true"/"false". */
  given: Map<string, string[]>;
  positionals: string[];
  /** Deprecation notices for stderr. */
  notices: string[];
}

interface LongMatch {
  def: FlagDef;
  deprecated: boolean;
}

function longIndex(defs: readonly FlagDef[]): Map<string, LongMatch> {
  const index = new Map<string, LongMatch>();
  for (const def of defs) {
    index.set(def.name, { def, deprecated: false });
    for (const alias of def.aliases ?? []) index.set(alias, { def, deprecated: false });
    for (const old of def.deprecated ?? []) index.set(old, { def, deprecated: true });
  }
  return index;
}

class Parser {
  readonly result: ParsedArgs = { given: new Map(), positionals: [], notices: [] };
  private readonly longs: Map<string, LongMatch>;
  private readonly shorts = new Map<string, FlagDef>();
  private i = 0;

  constructor(private readonly argv: readonly string[], defs: readonly FlagDef[]) {
    this.longs = longIndex(defs);
    for (const def of defs) if (def.short) this.shorts.set(def.short, def);
  }

  parse(): ParsedArgs {
    while (this.i < this.argv.length) {
      const token = this.argv[this.i++] ?? '';
      if (token === '--') {
        this.result.positionals.push(...this.argv.slice(this.i));
        break;
      }
      if (token.startsWith('--')) this.long(token.slice(2));
      else if (token.startsWith('-') && token.length > 1) this.short(token.slice(1));
      else this.result.positionals.push(token);
    }
    return this.result;
  }

  private record(def: FlagDef, value: string): void {
    const values = this.result.given.get(def.name) ?? [];
    // A repeated scalar flag keeps its last value; a list flag keeps them all.
    this.result.given.set(def.name, def.kind === 'list' ? [...values, value] : [value]);
  }

  private next(display: string): string {
    if (this.i >= this.argv.length) throw new UsageError(`flag ${display} needs a value`);
    return this.argv[this.i++] ?? '';
  }

  private long(body: string): void {
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const match = this.longs.get(name);
    if (!match) {
      const near = closest(name, [...this.longs.keys()]);
      throw new UsageError(`unknown flag --${name}${near === undefined ? '' : ` (did you mean --${this.longs.get(near)?.def.name ?? near}?)`}`);
    }
    const { def } = match;
    if (match.deprecated) this.result.notices.push(`flag --${name} is deprecated, use --${def.name}`);
    if (eq >= 0) this.record(def, body.slice(eq + 1));
    else this.record(def, def.kind === 'bool' ? 'true' : this.next(`--${name}`));
  }

  private short(body: string): void {
    for (let at = 0; at < body.length; at++) {
      const letter = body[at] ?? '';
      const def = this.shorts.get(letter);
      if (!def) throw new UsageError(`unknown shorthand flag -${letter}${body.length > 1 ? ` in -${body}` : ''}`);
      const rest = body.slice(at + 1);
      if (def.kind === 'bool') {
        if (!rest.startsWith('=')) {
          this.record(def, 'true');
          continue;
        }
        this.record(def, rest.slice(1));
        return;
      }
      this.record(def, rest === '' ? this.next(`-${letter}`) : rest.replace(/^=/, ''));
      return;
    }
  }
}

/**
 * Parses a command line against flag definitions, pflag style: `--name value`, `--name=value`,
 * `-p 8080`, `-p8080`, `-sh` (booleans together), `--bool`, `--bool=false`, repeatable list
 * flags, silent aliases and deprecated spellings; `--` ends the flags. Throws UsageError.
 */
export function parseArgs(argv: readonly string[], defs: readonly FlagDef[]): ParsedArgs {
  return new Parser(argv, defs).parse();
}
