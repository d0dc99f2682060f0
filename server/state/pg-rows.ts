/**
 * The state document as rows (store-pg.ts): one row per item of each collection (a user by id,
 * a share by hash, a token by id, a TOTP record by user, a trash record by user and id, the dead
 * properties of one path) and one row per other top-level field ('settings', 'server',
 * 'auther', 'nextUserId' ...) in the collection 'doc'. An update writes only the rows whose JSON
 * changed, so a share counter or a token's last use costs one row, not the whole state.
 */
import type { Database } from './schema';

/** Collections stored item by item; the rest of the document is one row per field. */
const ARRAYS = {
  users: (v: { id?: unknown }) => String(v.id),
  shares: (v: { hash?: unknown }) => String(v.hash),
  tokens: (v: { id?: unknown }) => String(v.id),
  totp: (v: { userId?: unknown }) => String(v.userId),
  trash: (v: { userId?: unknown; id?: unknown }) => `${String(v.userId)}/${String(v.id)}`,
} as const;
type ArrayName = keyof typeof ARRAYS;
const MAPS = ['davProperties'] as const;
export const DOC = 'doc';
/** The 'doc' row listing which collections the document has (an absent one stays absent). */
const PRESENT = '#collections';

/** One stored row: its JSON text, its place in its collection, and the parsed value. */
export interface Row {
  json: string;
  pos: number;
  value: unknown;
}

/** The rows of a document: collection -> key -> row. */
export type Rows = Map<string, Map<string, Row>>;

/** A row to write; `json` null deletes it (a tombstone). */
export interface RowWrite {
  coll: string;
  key: string;
  pos: number;
  json: string | null;
}

function isArrayName(name: string): name is ArrayName {
  return Object.hasOwn(ARRAYS, name);
}

function isMapName(name: string): boolean {
  return (MAPS as readonly string[]).includes(name);
}

/** Keys made unique in order: a repeated key (a hand-edited file) gets a suffix instead of overwriting. */
function uniqueKeys(keys: string[]): string[] {
  const seen = new Map<string, number>();
  return keys.map((k) => {
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    return n === 0 ? k : `${k}\u001f${n}`;
  });
}

/** The items of each collection and field of `db`, in order: collection -> [key, value][]. */
export function itemsOf(db: Database): Map<string, Array<[string, unknown]>> {
  const out = new Map<string, Array<[string, unknown]>>();
  const doc: Array<[string, unknown]> = [];
  const present: string[] = [];
  for (const [field, value] of Object.entries(db) as Array<[string, unknown]>) {
    if (isArrayName(field) && Array.isArray(value)) {
      const keyOf: (v: object) => string = ARRAYS[field];
      const list = value as unknown[];
      const keys = uniqueKeys(list.map((v) => keyOf(typeof v === 'object' && v !== null ? v : {})));
      out.set(field, list.map((v, i) => [keys[i] ?? String(i), v]));
      present.push(field);
    } else if (isMapName(field) && typeof value === 'object' && value !== null) {
      out.set(field, Object.entries(value as Record<string, unknown>));
      present.push(field);
    } else if (value !== undefined) {
      doc.push([field, value]);
    }
  }
  doc.push([PRESENT, present]);
  out.set(DOC, doc);
  return out;
}

/** Positions for the new order: kept when old items keep their order and new ones come last, else renumbered. */
function positions(old: Map<string, Row> | undefined, keys: string[]): number[] {
  let last = -1;
  let max = -1;
  for (const row of old?.values() ?? []) max = Math.max(max, row.pos);
  let inOrder = true;
  let seenNew = false;
  for (const k of keys) {
    const row = old?.get(k);
    if (!row) {
      seenNew = true;
      continue;
    }
    if (seenNew || row.pos <= last) inOrder = false;
    last = row.pos;
  }
  if (!inOrder) return keys.map((_k, i) => i);
  let next = max + 1;
  return keys.map((k) => old?.get(k)?.pos ?? next++);
}

/** The rows to write to turn `old` into `db`, and the rows `db` has (to keep as the next `old`). */
export function diffRows(old: Rows, db: Database): { writes: RowWrite[]; rows: Rows } {
  const writes: RowWrite[] = [];
  const rows: Rows = new Map();
  for (const [coll, items] of itemsOf(db)) {
    const before = old.get(coll);
    const pos = positions(before, items.map(([k]) => k));
    const now = new Map<string, Row>();
    items.forEach(([key, value], i) => {
      const json = JSON.stringify(value);
      const p = pos[i] ?? i;
      const prev = before?.get(key);
      const row = prev && prev.json === json ? { ...prev, pos: p } : { json, pos: p, value };
      now.set(key, row);
      if (!prev || prev.json !== json || prev.pos !== p) writes.push({ coll, key, pos: p, json });
    });
    rows.set(coll, now);
  }
  for (const [coll, before] of old) {
    const now = rows.get(coll);
    for (const key of before.keys()) if (!now?.has(key)) writes.push({ coll, key, pos: 0, json: null });
  }
  return { writes, rows };
}

/** Applies rows read from the database (null json = deleted) to `rows`, in place. */
export function applyRows(rows: Rows, read: RowWrite[]): void {
  for (const r of read) {
    let coll = rows.get(r.coll);
    if (!coll) rows.set(r.coll, (coll = new Map<string, Row>()));
    if (r.json === null) coll.delete(r.key);
    else coll.set(r.key, { json: r.json, pos: r.pos, value: JSON.parse(r.json) as unknown });
  }
}

function ordered(coll: Map<string, Row> | undefined): Row[] {
  return [...(coll?.values() ?? [])].sort((a, b) => a.pos - b.pos);
}

/** The document the rows hold (fresh objects at the top; the items are the rows' values). */
export function documentOf(rows: Rows): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  const fields = rows.get(DOC);
  for (const [key, row] of fields ?? []) if (key !== PRESENT) doc[key] = row.value;
  const present = fields?.get(PRESENT)?.value;
  for (const name of Array.isArray(present) ? (present as string[]) : []) {
    const coll = rows.get(name);
    if (isArrayName(name)) doc[name] = ordered(coll).map((r) => r.value);
    else if (isMapName(name)) {
      const entries = [...(coll ?? [])].sort((a, b) => a[1].pos - b[1].pos);
      doc[name] = Object.fromEntries(entries.map(([k, r]) => [k, r.value]));
    }
  }
  return doc;
}
