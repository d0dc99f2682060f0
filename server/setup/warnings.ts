import type { ServerConfig } from '../config';
import type { Settings } from '../state/schema';

/**
 * What an admin should hear about at startup (api.md §10.1 step 3): settings that widen what
 * users can do on the host.
 */
export function startupWarnings(config: ServerConfig, settings: Settings): string[] {
  const out: string[] = [];
  if (config.enableExec) {
    out.push('command execution is enabled: users with the execute permission can run the allowed commands with the rights of this server');
  }
  if (config.followExternalSymlinks) {
    out.push('symlinks that lead outside a user\'s scope are followed (--followExternalSymlinks): users can reach any file such a link points to');
  }
  const rootScope = ['', '.', '/', './'].includes(settings.defaults.scope.trim());
  if (settings.signup && !settings.createUserDir && rootScope) {
    out.push('signup is enabled and new users get the whole root as their scope: anyone who signs up can see every file; set createUserDir or a narrower default scope');
  }
  return out;
}
