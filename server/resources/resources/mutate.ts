import type { BigIntStats } from 'node:fs';
import type { Readable } from 'node:stream';
import { AppError } from '../../errors';
import { statTarget } from '../../fs/info';
import { cleanPath } from '../../fs/paths';
import { etagOf } from '../../fs/stat-format';
import { checkUploadTarget } from '../../fs/upload-target';
import { discardFile, makeDirectory, removeTree, writeFileAtomic } from '../../fs/write';
import { hookContext } from '../../hooks/context';
import { isWithin } from '../../lib/within';
import type { UserRecord } from '../../state/schema';
import { gateOf, modesOf, type ResourcesDeps } from './context';
import { checkDescendants } from '../../fs/descendants';
import { writeUnderQuota } from '../../quota/admit';

export interface CreateRequest {
  /** The raw request path; a trailing '/' creates a directory. */
  raw: string;
  override: boolean;
  body: Readable;
  /** The body's declared length (Content-Length); null when it streams without one. */
  length?: number | null;
}

/**
 * POST /api/resources{p} (§3.6): a trailing '/' makes the directory (mkdir -p); otherwise the
 * body becomes the file, atomically. Returns the file's ETag, or undefined for a directory.
 */
export async function createResource(deps: ResourcesDeps, user: UserRecord, req: CreateRequest): Promise<string | undefined> {
  if (!user.perm.create) throw new AppError('forbidden');
  const gate = await gateOf(deps, user);
  const target = await gate.resolve(req.raw, 'write');
  const modes = modesOf(deps);
  const ctx = hookContext(gate, user, { file: target });
  if (req.raw.endsWith('/')) {
    await deps.hooks.around('upload', ctx, () => makeDirectory(target, modes.dirMode));
    return undefined;
  }
  const existed = await checkUploadTarget(user, target, { raw: req.raw, override: req.override, tus: false });
  if (existed) await deps.previews?.invalidate(target.lexical);
  let written: BigIntStats | undefined;
  const under = { user, real: target.resolved, length: req.length ?? null, body: req.body };
  const write = (): Promise<BigIntStats> => writeUnderQuota(deps.quota, under, async (body) => (written = await writeFileAtomic(target, body, modes)));
  try {
    return etagOf(await deps.hooks.around('upload', ctx, write));
  } catch (err) {
    // A new file whose after-hook failed is removed (§3.6 step 5); an old file keeps its new bytes.
    // A write that failed left nothing of ours: what is there (a folder or file another request
    // made meanwhile) is not this request's to remove.
    if (!existed && written) await discardFile(target, written);
    throw err;
  }
}

/** PUT /api/resources{p} (§3.7): replaces an existing file atomically; returns its ETag. */
export async function saveResource(deps: ResourcesDeps, user: UserRecord, req: { raw: string; body: Readable; length?: number | null }): Promise<string> {
  if (!user.perm.modify) throw new AppError('forbidden');
  const gate = await gateOf(deps, user);
  const target = await gate.resolve(req.raw, 'write');
  if (req.raw.endsWith('/')) throw new AppError('method_not_allowed');
  const s = await statTarget(target);
  if (s.dangling) throw new AppError('not_found');
  if (s.effective.isDirectory()) throw new AppError('bad_request', 'cannot upload to a directory');
  const ctx = hookContext(gate, user, { file: target });
  const under = { user, real: target.resolved, length: req.length ?? null, body: req.body };
  const written = await deps.hooks.around('save', ctx, () => writeUnderQuota(deps.quota, under, (body) => writeFileAtomic(target, body, modesOf(deps))));
  return etagOf(written);
}

/** Removes the user's own shares of `path` and below it, on a '/' boundary (§3.8 step 4). */
export async function dropSharesBelow(deps: ResourcesDeps, user: UserRecord, path: string): Promise<void> {
  const root = cleanPath(path);
  const below = (p: string): boolean => isWithin(root, cleanPath(p));
  if (!deps.store.data().shares.some((s) => s.userID === user.id && below(s.path))) return;
  await deps.store.update((db) => {
    db.shares = db.shares.filter((s) => s.userID !== user.id || !below(s.path));
  });
}

/** DELETE /api/resources{p} (§3.8); into the trash while it is on, unless `permanent` (beyond.md §3). */
export async function deleteResource(deps: ResourcesDeps, user: UserRecord, req: { raw: string; permanent: boolean }): Promise<void> {
  const { raw, permanent } = req;
  if (cleanPath(raw) === '/' || !user.perm.delete) throw new AppError('forbidden');
  const gate = await gateOf(deps, user);
  const target = await gate.resolve(raw, 'write');
  const s = await statTarget(target);
  if (s.own.isDirectory()) await checkDescendants(gate, target);
  // Upstream only logs a failed share cleanup: it must not keep the delete from happening.
  await dropSharesBelow(deps, user, target.path).catch(() => undefined);
  await deps.previews?.invalidate(target.lexical);
  const ctx = hookContext(gate, user, { file: target });
  const trash = permanent ? undefined : deps.trash;
  await deps.hooks.around('delete', ctx, async () => {
    if (trash?.isEnabled()) await trash.moveToTrash(user, gate, target);
    else await removeTree(target, (p) => gate.guards(p));
  });
}
