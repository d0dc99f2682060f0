import { resolve } from 'node:path';
import type { ServerSettings } from '../server/state/schema';
import type { FlagValues } from './values';

type Setter = (s: ServerSettings, f: FlagValues, cwd: string) => void;

/** How each server flag lands in the stored server values (api.md §7); the disable* flags invert. */
const SETTERS: Record<string, Setter> = {
  address: (s, f) => { s.address = f.string('address'); },
  port: (s, f) => { s.port = String(f.number('port')); },
  // Stored absolute: a later start from another directory must serve the same folder.
  root: (s, f, cwd) => { s.root = resolve(cwd, f.string('root')); },
  baseURL: (s, f) => { s.baseURL = f.string('baseURL').replace(/\/+$/, ''); },
  log: (s, f) => { s.log = f.string('log'); },
  cert: (s, f) => { s.tlsCert = f.string('cert'); },
  key: (s, f) => { s.tlsKey = f.string('key'); },
  socket: (s, f) => { s.socket = f.string('socket'); },
  tokenExpirationTime: (s, f) => { s.tokenExpirationTime = f.string('tokenExpirationTime'); },
  disableThumbnails: (s, f) => { s.enableThumbnails = !f.bool('disableThumbnails'); },
  disablePreviewResize: (s, f) => { s.resizePreview = !f.bool('disablePreviewResize'); },
  disableExec: (s, f) => { s.enableExec = !f.bool('disableExec'); },
  disableTypeDetectionByHeader: (s, f) => { s.typeDetectionByHeader = !f.bool('disableTypeDetectionByHeader'); },
  disableImageResolutionCalc: (s, f) => { s.imageResolutionCalculation = !f.bool('disableImageResolutionCalc'); },
  followExternalSymlinks: (s, f) => { s.followExternalSymlinks = f.bool('followExternalSymlinks'); },
};

/**
 * Writes server flags into stored server values. With `onlySet`, only flags given explicitly
 * (command line, environment, config file) change anything: stored values beat defaults. A
 * relative root is resolved against `cwd`, the directory filemgr was started from.
 */
export function applyServerFlags(server: ServerSettings, flags: FlagValues, opts: { onlySet: boolean; cwd: string }): void {
  for (const [name, set] of Object.entries(SETTERS)) {
    if (flags.has(name) && (!opts.onlySet || flags.isSet(name))) set(server, flags, opts.cwd);
  }
}

/** True when any of the flags that choose a TCP listener was given explicitly. */
export function tcpTargetSet(flags: FlagValues): boolean {
  return ['address', 'port', 'cert', 'key'].some((n) => flags.isSet(n));
}
