import { basename } from 'node:path';
import { AppError } from '../errors';
import type { UserRecord } from '../state/schema';
import { existsAt, statTarget } from './info';
import type { Target } from './scope';

/** An existing target is replaced only with override=true (else 409) and perm.modify (else 403). */
function mayReplace(user: UserRecord, override: boolean): void {
  if (!override) throw new AppError('exists');
  if (!user.perm.modify) throw new AppError('forbidden');
}

/**
 * The checks of an upload's target, for POST /api/resources and tus POST. Upstream orders them
 * differently and both orders are kept: a plain POST checks override and modify before refusing a
 * folder and counts a dangling link as existing (§3.6 step 3); tus refuses a folder first and
 * writes through a dangling link as a new file (§3.17 POST step 3). Returns true when the target
 * existed.
 */
export async function checkUploadTarget(user: UserRecord, target: Target, req: { raw: string; override: boolean; tus: boolean }): Promise<boolean> {
  return req.tus ? checkTusTarget(user, target, req) : checkPostTarget(user, target, req.override);
}

async function checkPostTarget(user: UserRecord, target: Target, override: boolean): Promise<boolean> {
  if (!(await existsAt(target))) return false;
  mayReplace(user, override);
  if ((await statTarget(target)).effective.isDirectory()) throw new AppError('bad_request', 'cannot upload to a directory');
  return true;
}

async function checkTusTarget(user: UserRecord, target: Target, req: { raw: string; override: boolean }): Promise<boolean> {
  const folder = `cannot upload to a directory ${basename(target.path) || '/'}`;
  if (target.path === '/' || req.raw.endsWith('/')) throw new AppError('bad_request', folder);
  const s = await statTarget(target).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'not_found') return undefined;
    throw err;
  });
  if (!s || s.dangling) return false;
  if (s.effective.isDirectory()) throw new AppError('bad_request', folder);
  mayReplace(user, req.override);
  return true;
}
