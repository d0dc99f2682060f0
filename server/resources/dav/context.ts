import type { QuotaGate } from '../../quota/admit';
import type { QuotaUsage } from '../../quota/quota';
import type { BigIntStats } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { AppError } from '../../errors';
import type { GateFactory } from '../../fs/gates';
import { statTarget, type EntryStat } from '../../fs/info';
import type { PathGate, Target } from '../../fs/scope';
import type { CreateModes } from '../../fs/write';
import type { HookRunner } from '../../hooks/hooks';
import type { RawFileServer } from '../../http/served';
import { createModes } from '../../state/modes';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import type { DavProperties } from './dead-props';
import { DAV_MOUNT } from './href';
import type { DavLocks } from './locks';

/** What the WebDAV service needs; app-services.ts composes it. */
export interface DavDeps {
  store: Store;
  baseURL: string;
  gates: GateFactory;
  hooks: HookRunner;
  locks: DavLocks;
  props: DavProperties;
  /** Serves a regular file exactly as GET /api/raw does (Range, ETag, conditional requests). */
  rawFile: RawFileServer;
  /** Drops cached previews of a real path (overwrite, move, delete). */
  previews?: { invalidate(realPath: string): Promise<void> };
  /** The recycle bin DELETE moves items into while it is on (beyond.md §3). */
  trash?: { isEnabled(): boolean; moveToTrash(user: UserRecord, gate: PathGate, target: Target): Promise<unknown> };
  /** Quotas (beyond.md §6): PUT and COPY answer 507 beyond them; PROPFIND tells them (RFC 4331). */
  quota?: QuotaGate & { usage(user: UserRecord): Promise<QuotaUsage | null> };
}

/** One WebDAV request, authenticated, as the handlers see it. */
export interface DavRequest {
  user: UserRecord;
  gate: PathGate;
  /** The decoded user path as requested (a trailing '/' kept). */
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  /** The unread request body (PUT streams it; XML methods read at most 64 KiB). */
  body: Readable;
}

/** A decided response. */
export interface DavReply {
  status: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer | Readable;
}

/** The shared parts of every handler: the deps and the request. */
export interface DavCtx {
  deps: DavDeps;
  req: DavRequest;
}

/** A request header as one string (the first of repeated ones). */
export function header(req: DavRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The href prefix of this mount: `<baseURL>/dav`. */
export function mountOf(deps: DavDeps): string {
  return `${deps.baseURL}${DAV_MOUNT}`;
}

/** The identity of a resource for locks and dead properties: its real path, the same for every user. */
export function keyOf(target: Target): string {
  return target.real;
}

/** settings.fileMode / dirMode. */
export function modesOf(deps: DavDeps): CreateModes {
  return createModes(deps.store.data().settings);
}

/** The stat of a gated target, or null when nothing (or a dangling link) is there. */
export async function statOrNull(target: Target): Promise<EntryStat | null> {
  try {
    const s = await statTarget(target);
    return s.dangling ? null : s;
  } catch (err) {
    if (err instanceof AppError && (err.code === 'not_found' || err.code === 'exists')) return null;
    throw err;
  }
}

/** The effective stat of an existing target, else 404. */
export async function existing(target: Target): Promise<BigIntStats> {
  const s = await statOrNull(target);
  if (!s) throw new AppError('not_found');
  return s.effective;
}
