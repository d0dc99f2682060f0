/**
 * The build's version and commit. `npm run build` injects them with esbuild `define`
 * (build/versions.ts); running from source they are undefined and the dev values apply.
 */
declare const __FILEMGR_VERSION__: string | undefined;
declare const __FILEMGR_COMMIT__: string | undefined;

/** package.json's version at build time, `0.0.0-dev` from source. */
export const VERSION: string = typeof __FILEMGR_VERSION__ === 'string' ? __FILEMGR_VERSION__ : '0.0.0-dev';

/** `git rev-parse --short HEAD` at build time, `untracked` when unknown. */
export const COMMIT: string = typeof __FILEMGR_COMMIT__ === 'string' ? __FILEMGR_COMMIT__ : 'untracked';
