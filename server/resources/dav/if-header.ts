import { AppError } from '../../errors';

/**
 * The `If` request header of RFC 4918 §10.4: tagged or untagged lists of conditions, each a
 * state token (a lock token in `<...>`) or an entity tag in `[...]`, either possibly negated.
 */
export interface Condition {
  not: boolean;
  token?: string;
  etag?: string;
}

export interface IfList {
  /** The resource tag (an absolute URL or path) of a tagged list; undefined: the request URI. */
  resource?: string;
  conditions: Condition[];
}

/** RFC 4918 §10.4: `<DAV:no-lock>` is a state token no resource ever has. */
export const NO_LOCK = 'DAV:no-lock';

const MAX_IF_LENGTH = 16 * 1024;
/** Each list may name another resource to look up: a header of thousands is refused. */
const MAX_LISTS = 64;

class Scanner {
  pos = 0;
  constructor(readonly text: string) {}
  skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos] ?? '')) this.pos++;
  }
  peek(): string {
    this.skipSpace();
    return this.text[this.pos] ?? '';
  }
  done(): boolean {
    return this.peek() === '';
  }
  /** The text up to the closing `close`, after the opening character. */
  delimited(close: string): string {
    const end = this.text.indexOf(close, this.pos + 1);
    if (end < 0) throw bad();
    const inner = this.text.slice(this.pos + 1, end);
    this.pos = end + 1;
    return inner;
  }
  word(w: string): boolean {
    this.skipSpace();
    if (this.text.slice(this.pos, this.pos + w.length).toLowerCase() !== w.toLowerCase()) return false;
    this.pos += w.length;
    return true;
  }
}

function bad(): AppError {
  return new AppError('bad_request', 'malformed If header');
}

function condition(s: Scanner): Condition {
  const not = s.word('Not');
  const c = s.peek();
  if (c === '<') {
    const token = s.delimited('>').trim();
    if (token === '' || /\s/.test(token)) throw bad();
    return { not, token };
  }
  if (c === '[') {
    const etag = s.delimited(']').trim();
    if (!/^(W\/)?"[^"]*"$/.test(etag)) throw bad();
    return { not, etag };
  }
  throw bad();
}

function list(s: Scanner): Condition[] {
  if (s.peek() !== '(') throw bad();
  s.pos++;
  const conditions: Condition[] = [];
  while (s.peek() !== ')') {
    if (s.done()) throw bad();
    conditions.push(condition(s));
  }
  s.pos++;
  if (conditions.length === 0) throw bad();
  return conditions;
}

/** Parses an `If` header; undefined when there is none, 400 when it is malformed. */
export function parseIf(header: string | undefined): IfList[] | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  if (header.length > MAX_IF_LENGTH) throw bad();
  const s = new Scanner(header);
  const lists: IfList[] = [];
  let tagged: boolean | undefined;
  let resource: string | undefined;
  while (!s.done()) {
    if (s.peek() === '<') {
      if (tagged === false) throw bad();
      tagged = true;
      resource = s.delimited('>').trim();
      if (s.peek() !== '(') throw bad();
      continue;
    }
    if (tagged === undefined) tagged = false;
    lists.push(tagged ? { resource, conditions: list(s) } : { conditions: list(s) });
    if (lists.length > MAX_LISTS) throw bad();
  }
  if (lists.length === 0) throw bad();
  return lists;
}

/** Every state token an `If` header names: the lock tokens it submits (RFC 4918 §10.4.1). */
export function submittedTokens(lists: readonly IfList[] | undefined): Set<string> {
  const tokens = new Set<string>();
  for (const l of lists ?? []) for (const c of l.conditions) if (c.token !== undefined && c.token !== NO_LOCK) tokens.add(c.token);
  return tokens;
}

/** What the conditions are tested against: a resource's current entity tag and its lock tokens. */
export interface ResourceState {
  /** The entity tag, or undefined when the resource does not exist. */
  etag: string | undefined;
  /** Tokens of the locks that cover the resource. */
  tokens: ReadonlySet<string>;
}

/** Strong comparison of entity tags, as RFC 4918 §10.4.4 asks (weak tags never match). */
function etagMatches(want: string, have: string | undefined): boolean {
  return have !== undefined && !want.startsWith('W/') && want === have;
}

function holds(c: Condition, state: ResourceState): boolean {
  const matched = c.token !== undefined ? c.token !== NO_LOCK && state.tokens.has(c.token) : etagMatches(c.etag ?? '', state.etag);
  return c.not ? !matched : matched;
}

/**
 * Evaluates parsed lists (RFC 4918 §10.4.2): true when at least one list has all its conditions
 * true for its resource. `stateOf(undefined)` is the request URI's state; a resource tag this
 * server cannot map gives a state that matches nothing.
 */
export async function evaluateIf(lists: readonly IfList[], stateOf: (resource: string | undefined) => Promise<ResourceState>): Promise<boolean> {
  for (const l of lists) {
    const state = await stateOf(l.resource);
    if (l.conditions.every((c) => holds(c, state))) return true;
  }
  return false;
}
