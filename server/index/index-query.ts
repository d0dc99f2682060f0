import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { KIND, ROOT_ID, type Kind } from './index-db';

/** A match found in the index, relative to the search root. */
export interface IndexHit {
  /** '/'-separated, no leading slash (as the walk's relativePath). */
  rel: string;
  kind: Kind;
}

/** What the index needs of a search: the terms for its trigram lookup, the exact test for names. */
export interface IndexSearch {
  /** Base-name substrings (lower-cased unless case-sensitive); '' matches everything. */
  terms: string[];
  /** The search's own predicate: every candidate is checked with it, so results equal the walk's. */
  matches: (name: string) => boolean;
  signal: AbortSignal;
}

/** More candidates than this and the index gives up (the walk streams them instead of holding them). */
const MAX_CANDIDATES = 200_000;
/** Rows read from a full scan before the event loop gets a turn. */
const SCAN_CHUNK = 20_000;

interface Candidate {
  id: number;
  parent: number;
  name: string;
  kind: Kind;
}

/** ASCII without LIKE's wildcards: SQLite's case folding and JavaScript's agree there. */
const PLAIN_ASCII = /^[\x20-\x24\x26-\x5e\x60-\x7e]+$/;

/**
 * How the index narrows the candidates of a search: the trigram index (a LIKE without ESCAPE,
 * which FTS5 would not use) for terms of 3+ characters, a scan in SQLite for shorter ones, or
 * every row through the search's own predicate (other scripts, type-only queries).
 */
function narrowing(terms: string[]): 'trigram' | 'instr' | 'all' {
  if (terms.length === 0 || !terms.every((t) => PLAIN_ASCII.test(t))) return 'all';
  return terms.every((t) => t.length >= 3) ? 'trigram' : 'instr';
}

/** The index's statements, prepared once per connection. */
export class IndexReader {
  private readonly child: StatementSync;
  readonly byId: StatementSync;
  private readonly like: StatementSync;
  private readonly instr: StatementSync;
  private readonly scan: StatementSync;

  constructor(private readonly db: DatabaseSync) {
    this.child = db.prepare('SELECT id, kind FROM entries WHERE parent = ? AND name = ?');
    this.byId = db.prepare('SELECT id, parent, name, kind FROM entries WHERE id = ?');
    this.like = db.prepare('SELECT e.id, e.parent, e.name, e.kind FROM names JOIN entries e ON e.id = names.rowid WHERE names.name LIKE ?');
    this.instr = db.prepare('SELECT id, parent, name, kind FROM entries WHERE instr(lower(name), ?) > 0');
    this.scan = db.prepare('SELECT id, parent, name, kind FROM entries WHERE id > ? ORDER BY id LIMIT ?');
  }

  /** The id and kind of the entry at `segments` below the indexed root, or undefined. */
  lookup(segments: readonly string[]): { id: number; kind: Kind } | undefined {
    let at: { id: number; kind: Kind } = { id: ROOT_ID, kind: KIND.dir };
    for (const name of segments) {
      const row = this.child.get(at.id, name) as { id: number; kind: Kind } | undefined;
      if (!row) return undefined;
      at = row;
    }
    return at;
  }

  /**
   * The entries below the directory `rootId` whose names the search matches, in the walk's order
   * (lexical pre-order); null when there are too many to hold (the caller walks instead).
   */
  async find(rootId: number, search: IndexSearch): Promise<IndexHit[] | null> {
    const how = narrowing(search.terms);
    const candidates = how === 'all' ? await this.byScan(search) : this.bySql(how === 'trigram' ? this.like : this.instr, search.terms, how === 'trigram');
    if (candidates === null) return null;
    const paths = new PathsBelow(this.byId, rootId);
    const hits: { rel: string; kind: Kind; key: string[] }[] = [];
    for (const c of candidates) {
      if (search.signal.aborted) return [];
      if (c.id === rootId || !search.matches(c.name)) continue;
      const parent = paths.of(c.parent);
      if (parent === null) continue;
      const rel = parent === '' ? c.name : `${parent}/${c.name}`;
      hits.push({ rel, kind: c.kind, key: rel.split('/') });
    }
    hits.sort((a, b) => preOrder(a.key, b.key));
    return hits.map(({ rel, kind }) => ({ rel, kind }));
  }

  /** The rows a query finds for each term (a superset: the search's predicate decides). */
  private bySql(query: StatementSync, terms: string[], like: boolean): Candidate[] | null {
    const seen = new Map<number, Candidate>();
    for (const term of terms) {
      for (const row of query.iterate(like ? `%${term}%` : term.toLowerCase()) as Iterable<Candidate>) {
        seen.set(row.id, row);
        if (seen.size > MAX_CANDIDATES) return null;
      }
    }
    return [...seen.values()];
  }

  /** Every row, in chunks that give the event loop a turn, kept when the search's predicate holds. */
  private async byScan(search: IndexSearch): Promise<Candidate[] | null> {
    const kept: Candidate[] = [];
    let after = 0;
    for (;;) {
      const rows = this.scan.all(after, SCAN_CHUNK) as unknown as Candidate[];
      for (const row of rows) if (search.matches(row.name)) kept.push(row);
      if (kept.length > MAX_CANDIDATES) return null;
      if (rows.length < SCAN_CHUNK || search.signal.aborted) return kept;
      after = rows[rows.length - 1]!.id;
      await yieldToLoop();
    }
  }
}

/** The paths of directories relative to one of them (null: not below it), remembered for one search or rescan. */
export class PathsBelow {
  private readonly known = new Map<number, string | null>();

  constructor(private readonly byId: StatementSync, root: number) {
    this.known.set(root, '');
    if (root !== ROOT_ID) this.known.set(ROOT_ID, null);
  }

  of(id: number): string | null {
    const chain: { id: number; name: string }[] = [];
    let at = id;
    let base = this.known.get(at);
    while (base === undefined) {
      const row = this.byId.get(at) as Candidate | undefined;
      if (!row) {
        base = null;
        break;
      }
      chain.push({ id: at, name: row.name });
      at = row.parent;
      base = this.known.get(at);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const link = chain[i]!;
      base = base === null ? null : base === '' ? link.name : `${base}/${link.name}`;
      this.known.set(link.id, base);
    }
    return base;
  }
}

/** The walk's order: directory by directory, names compared as JavaScript strings, a parent before its children. */
function preOrder(a: string[], b: string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}
