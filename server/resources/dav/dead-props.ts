import { isWithin } from '../../lib/within';
import type { DeadProperty } from '../../state/schema';
import type { Store } from '../../state/store';

export type { DeadProperty };

/** At most this many bytes of dead properties per resource (beyond.md §1). */
export const DEAD_PROPS_LIMIT = 64 * 1024;

/** One PROPPATCH instruction, in document order. */
export type PropOp = { op: 'set'; prop: DeadProperty } | { op: 'remove'; ns: string; name: string };

/**
 * WebDAV dead properties in the state store (they survive a restart), keyed by a resource's real
 * path; they follow the resource when it is copied, moved or deleted.
 */
export interface DavProperties {
  /** The dead properties of one resource. */
  of(key: string): readonly DeadProperty[];
  /** Applies the instructions atomically; false (nothing changed) when the result exceeds the limit. */
  patch(key: string, ops: readonly PropOp[]): Promise<boolean>;
  /** Copies the properties of `from` and everything below it (only its own when shallow) to `to`. */
  copy(from: string, to: string, opts?: { shallow?: boolean }): Promise<void>;
  /** Moves them (rename of a tree). */
  move(from: string, to: string): Promise<void>;
  /** Drops the properties of `key` and below (a delete, or a target overwritten). */
  drop(key: string): Promise<void>;
}

const NONE: readonly DeadProperty[] = [];

const sizeOf = (props: readonly DeadProperty[]): number => props.reduce((n, p) => n + Buffer.byteLength(p.xml) + p.ns.length + p.name.length, 0);

function applied(current: readonly DeadProperty[], ops: readonly PropOp[]): DeadProperty[] {
  let next = [...current];
  for (const o of ops) {
    const [ns, name] = o.op === 'set' ? [o.prop.ns, o.prop.name] : [o.ns, o.name];
    next = next.filter((p) => p.ns !== ns || p.name !== name);
    if (o.op === 'set') next.push(o.prop);
  }
  return next;
}

/** Keys of the map at or below `root`. */
function keysWithin(map: Readonly<Record<string, unknown>>, root: string): string[] {
  return Object.keys(map).filter((k) => isWithin(root, k));
}

/** The dead-property table on the state store. */
export function createDavProperties(store: Store): DavProperties {
  const table = (): Readonly<Record<string, DeadProperty[]>> => store.data().davProperties ?? {};
  const rebase = async (from: string, to: string, how: { keep: boolean; shallow?: boolean }): Promise<void> => {
    const sources = (t: Readonly<Record<string, unknown>>): string[] => (how.shallow ? keysWithin(t, from).filter((k) => k === from) : keysWithin(t, from));
    if (sources(table()).length === 0 && keysWithin(table(), to).length === 0) return;
    await store.update((db) => {
      const t = (db.davProperties ??= {});
      for (const k of keysWithin(t, to)) delete t[k];
      for (const k of sources(t)) {
        const props = t[k];
        if (!props) continue;
        t[to + k.slice(from.length)] = props.map((p) => ({ ...p }));
        if (!how.keep) delete t[k];
      }
    });
  };
  return {
    // Most servers hold no dead property at all: a listing then looks nothing up.
    of: (key) => store.data().davProperties?.[key] ?? NONE,
    async patch(key, ops) {
      const next = applied(table()[key] ?? [], ops);
      if (sizeOf(next) > DEAD_PROPS_LIMIT) return false;
      await store.update((db) => {
        const t = (db.davProperties ??= {});
        if (next.length === 0) delete t[key];
        else t[key] = next;
      });
      return true;
    },
    copy: (from, to, opts) => rebase(from, to, { keep: true, shallow: opts?.shallow }),
    move: (from, to) => rebase(from, to, { keep: false }),
    async drop(key) {
      if (keysWithin(table(), key).length === 0) return;
      await store.update((db) => {
        const t = db.davProperties ?? {};
        for (const k of keysWithin(t, key)) delete t[k];
      });
    },
  };
}
