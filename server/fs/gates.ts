import type { ServerConfig } from '../config';
import { hasRules, isAllowed, ruleContextFor, detectCaseInsensitive } from '../rules/rules';
import type { Settings, UserRecord } from '../state/schema';
import { hiddenFilesOf, type HiddenFiles, TRASH_DIR } from './hidden';
import { join } from 'node:path';
import { cleanPath, joinPath } from './paths';
import { createGate, type PathGate, scopeRoot } from './scope';

/** Builds the path gates of requests: one per signed-in user or public share. */
export interface GateFactory {
  /** The gate of `user`: their scope, the global and their own rules, their dotfile flag. */
  forUser(user: UserRecord, settings: Settings): Promise<PathGate>;
  /**
   * The gate of a public share: rooted at the share's path inside the owner's scope, with the
   * owner's rules evaluated on the owner's full path (api.md §3.16, §6.2 step 1).
   */
  forShare(owner: UserRecord, settings: Settings, sharePath: string): Promise<PathGate>;
  /** The server's own files (for code that lists without a gate, e.g. tus temporaries). */
  readonly hidden: HiddenFiles;
  /** Whether path rules fold case (probed once on the served root). */
  readonly caseInsensitive: boolean;
}

/** Creates the factory once per server: probes case sensitivity and resolves the hidden files. */
export async function createGateFactory(config: Pick<ServerConfig, 'root' | 'followExternalSymlinks' | 'databasePath' | 'cacheDir'>): Promise<GateFactory> {
  const hidden = await hiddenFilesOf({ databasePath: config.databasePath, cacheDir: config.cacheDir, trashDir: join(config.root, TRASH_DIR) });
  const caseInsensitive = await detectCaseInsensitive(config.root);
  const gateOf = (user: UserRecord, settings: Settings, prefix: string): Promise<PathGate> => {
    const ctx = ruleContextFor(user, settings, caseInsensitive);
    const rulesOnly = ruleContextFor({ rules: user.rules, hideDotfiles: false }, settings, caseInsensitive);
    const shareRoot = cleanPath(prefix);
    const full = (p: string): string => withinShare(shareRoot, p);
    const userRoot = scopeRoot(config.root, user.scope);
    return createGate({
      root: prefix === '/' ? userRoot : scopeRoot(userRoot, prefix),
      followExternalSymlinks: config.followExternalSymlinks,
      hidden,
      allows: (p) => isAllowed(ctx, full(p)),
      descendantAllows: hasRules(ctx) ? (p) => isAllowed(rulesOnly, full(p)) : undefined,
    });
  };
  return {
    hidden,
    caseInsensitive,
    forUser: (user, settings) => gateOf(user, settings, '/'),
    forShare: (owner, settings, sharePath) => gateOf(owner, settings, cleanPath(sharePath)),
  };
}

/** The full user path of a path inside a share rooted at `sharePath`. */
export function sharePathOf(sharePath: string, path: string): string {
  return withinShare(cleanPath(sharePath), path);
}

/** sharePathOf for a share root already clean (a gate asks this of every path it checks). */
function withinShare(root: string, path: string): string {
  const inner = cleanPath(path);
  if (inner === '/') return root;
  return root === '/' ? inner : joinPath(root, inner.slice(1));
}
