import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../errors';
import { extractArchive } from '../../archive/unpack/extract';
import { holdExtracted } from '../../quota/admit';
import { entryPath, refused } from '../../archive/unpack/entry-names';
import { archiveKindOf } from '../../archive/unpack/formats';
import { defaultArchiveWorkerSource } from '../../archive/worker-source';
import { fsError } from '../../fs/fs-error';
import { isTempName } from '../../fs/hidden';
import { canonicalPath, joinPath } from '../../fs/paths';
import type { PathGate, Target } from '../../fs/scope';
import { hookContext } from '../../hooks/context';
import type { UserRecord } from '../../state/schema';
import { gateOf, modesOf, type ResourcesDeps } from './context';
import { decodeDestination, type PatchRequest } from './patch';

/** The name check of one entry: no `..` or absolute name, the rules of its place, no temporary names. */
function entryVetter(gate: PathGate, dst: Target): (name: string) => string {
  return (name) => {
    const rel = entryPath(name);
    if (rel === '') return rel;
    // As for the descendants of a copy (§6.3): the rules decide, hideDotfiles does not.
    if (rel.split('/').some(isTempName) || !gate.descendantAllows(joinPath(dst.path, rel))) throw refused(name, 'the rules deny it');
    if (gate.hides(join(dst.resolved, rel))) throw refused(name, 'it would replace a file of the server');
    return rel;
  };
}

async function archiveOf(gate: PathGate, raw: string): Promise<{ src: Target; kind: NonNullable<ReturnType<typeof archiveKindOf>> }> {
  const src = await gate.resolve(raw, 'read');
  const info = await stat(src.resolved).catch((err: unknown) => Promise.reject(fsError(err)));
  const kind = archiveKindOf(src.path);
  if (info.isDirectory() || kind === null) throw new AppError('bad_request', 'not an archive that can be extracted (zip, tar, tar.gz, tar.bz2, tar.xz, tar.zst)');
  return { src, kind };
}

/**
 * PATCH /api/resources{archive}?action=extract&destination=&override= (beyond.md §5): needs
 * `create` (and `modify` to override). Runs between the `upload` hooks, once for the whole
 * archive (FILE the archive, DESTINATION the folder): extraction is an upload of many files.
 */
export async function extractResource(deps: ResourcesDeps, user: UserRecord, { raw, query: q }: PatchRequest): Promise<void> {
  const override = q.override === 'true';
  if (!user.perm.create || (override && !user.perm.modify)) throw new AppError('forbidden');
  const gate = await gateOf(deps, user);
  const { src, kind } = await archiveOf(gate, raw);
  const dst = await gate.resolve(canonicalPath(decodeDestination(q.destination ?? '')), 'write');
  const room = (await deps.quota?.room(user)) ?? null;
  const ctx = hookContext(gate, user, { file: src, destination: dst });
  await deps.hooks.around('upload', ctx, () =>
    extractArchive({ archive: src.resolved, kind, dest: dst.resolved, override, vet: entryVetter(gate, dst), modes: modesOf(deps), room, hold: holdExtracted(deps.quota, user), workerSource: deps.workerSource ?? defaultArchiveWorkerSource() }),
  );
}
