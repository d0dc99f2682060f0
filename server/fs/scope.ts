import { basename, dirname, join } from 'node:path';
import { AppError } from '../errors';
import { fsError } from './fs-error';
import { type HiddenFiles, noHiddenFiles, TEMP_PREFIX } from './hidden';
import { isWithin } from '../lib/within';
import { cleanPath } from './paths';
import { resolveTarget } from './resolve-symlinks';

/**
 * THE path gate (api.md §1.4, §5.1, §5.2, §6, §14). Every user-supplied path reaches the disk only
 * through `PathGate.resolve`, which canonicalises it, applies the rule and dotfile check, keeps it
 * inside the gate's root (lexically, and with symlinks resolved unless followExternalSymlinks),
 * and hides the server's own files and temporary files.
 */

/** What a resolved path is for: a missing hidden file reads as 404, writing one is 403. */
export type Intent = 'read' | 'write';

export interface GateOptions {
  /** Absolute root of the gate: `scopeRoot(serverRoot, user.scope)`, or a share's real path. */
  root: string;
  /** True: only lexical confinement (symlinks followed anywhere); false: §5.2 confinement. */
  followExternalSymlinks: boolean;
  /** The server's own files (database, cache); default none. */
  hidden?: HiddenFiles;
  /** Rule + dotfile check of a clean user path (§6.2); default: everything allowed. */
  allows?: (path: string) => boolean;
  /**
   * Rule check ignoring hideDotfiles, for the descendant walk of DELETE/PATCH (§6.3); leave it
   * undefined when no global or user rule exists, so the walk is skipped.
   */
  descendantAllows?: (path: string) => boolean;
}

/** A user path that passed the gate. */
export interface Target {
  /** Clean canonical user path, no trailing slash ('/' for the root). */
  path: string;
  /** The on-disk path to operate on: the parent with symlinks resolved, plus the base name. */
  real: string;
  /** Gate root joined with the user path, as configured (api.md §5.1 FullPath: hooks, cache keys). */
  lexical: string;
  /** Where the path ends up with every symlink followed (write file contents here). */
  resolved: string;
}

export interface ResolveOptions {
  /**
   * Skip the rule and dotfile check: only for the children of a tree whose descendants were
   * already checked (§6.3 copy), never for a request path.
   */
  unchecked?: boolean;
}

export interface PathGate {
  /** Absolute root as configured. */
  readonly root: string;
  /** The root with symlinks resolved (what confinement compares against). */
  readonly realRoot: string;
  readonly followExternalSymlinks: boolean;
  /** True when rules exist, so DELETE/PATCH must walk descendants (§6.3). */
  readonly hasRules: boolean;
  /** Name-level check of a clean user path: rules, dotfiles, temporary names. No disk access. */
  allows(path: string): boolean;
  /** The §6.3 descendant check of one clean user path (rules only). */
  descendantAllows(path: string): boolean;
  /** Canonicalises and confines `raw`; throws 403 (denied, escaping), 404 (hidden on read), 400. */
  resolve(raw: string, intent?: Intent, opts?: ResolveOptions): Promise<Target>;
  /** True when a protected server file (database, cache) lies at or below this real path. */
  guards(realPath: string): boolean;
  /** True when the real path of a directory entry, followed through symlinks, stays inside. */
  confines(realPath: string): Promise<boolean>;
  /** True when a real path is one of the server's own files. */
  hides(realPath: string): boolean;
}

/** A user's filesystem root: the server root joined with the scope forced absolute and clean (§5.1). */
export function scopeRoot(serverRoot: string, scope: string): string {
  const clean = cleanPath(scope);
  return clean === '/' ? serverRoot : join(serverRoot, clean);
}

const TEMP_COMPONENT = `/${TEMP_PREFIX}`;

/** True when any component of a clean user path (always '/'-led) is a temporary name. */
function hasTempComponent(path: string): boolean {
  return path.includes(TEMP_COMPONENT);
}

function refuse(intent: Intent): AppError {
  return new AppError(intent === 'read' ? 'not_found' : 'forbidden');
}

/** Builds the gate for one root; the root's own symlinks are resolved once here. */
export async function createGate(opts: GateOptions): Promise<PathGate> {
  const realRoot = await translatedResolve(opts.root);
  const hidden = opts.hidden ?? noHiddenFiles;
  const allows = opts.allows ?? (() => true);
  const inside = (real: string): boolean => opts.followExternalSymlinks || isWithin(realRoot, real);
  const gate: PathGate = {
    root: opts.root,
    realRoot,
    followExternalSymlinks: opts.followExternalSymlinks,
    hasRules: opts.descendantAllows !== undefined,
    allows: (path) => !hasTempComponent(path) && allows(path),
    descendantAllows: (path) => opts.descendantAllows?.(path) ?? true,
    hides: (real) => hidden.hides(real),
    async confines(real) {
      const resolved = await translatedResolve(real);
      return inside(resolved) && !hidden.hides(resolved);
    },
    guards: (real) => hidden.within(real),
    async resolve(raw, intent = 'read', ropts = {}) {
      const path = checkedPath(raw, intent, ropts.unchecked === true ? null : gate);
      const lexical = path === '/' ? opts.root : join(opts.root, path);
      if (opts.followExternalSymlinks) return finish({ path, real: lexical, lexical, resolved: await translatedResolve(lexical) }, intent);
      const resolved = await translatedResolve(lexical);
      const real = path === '/' ? realRoot : join(await translatedResolve(dirname(lexical)), basename(lexical));
      if (!inside(resolved) || (path !== '/' && !inside(dirname(real)))) throw new AppError('forbidden');
      return finish({ path, real, lexical, resolved }, intent);
    },
  };
  const finish = (t: Target, intent: Intent): Target => {
    if (hidden.hides(t.resolved) || hidden.hides(t.real)) throw refuse(intent);
    return t;
  };
  return gate;
}

function checkedPath(raw: string, intent: Intent, gate: PathGate | null): string {
  if (raw.includes('\0')) throw new AppError('bad_request', 'invalid path');
  const path = cleanPath(raw);
  if (hasTempComponent(path)) throw refuse(intent);
  if (gate && !gate.allows(path)) throw new AppError('forbidden');
  return path;
}

async function translatedResolve(path: string): Promise<string> {
  try {
    return await resolveTarget(path);
  } catch (err) {
    throw fsError(err);
  }
}
