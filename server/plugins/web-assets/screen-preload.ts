import { escapeHtml, preloadLink } from './index-template';
import type { ScreenPreload } from './manifest';

/** `/files` matches `/files` and `/files/…`; `/` matches only itself. */
function opens(route: string, path: string): boolean {
  return path === route || (route !== '/' && path.startsWith(`${route}/`));
}

/**
 * The modulepreload links of the screen an address opens (the index page's `Preload` hole), so a
 * first visit fetches that screen's chunks beside the entry instead of after it has run. `url` is
 * the request's, which the app has already stripped of the base URL.
 */
export function screenPreloadTags(screens: readonly ScreenPreload[], url: string, staticURL: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '/';
  const screen = screens.find((s) => s.routes.some((route) => opens(route, path)));
  return screen ? screen.chunks.map((chunk) => preloadLink(escapeHtml(chunk), staticURL)).join('\n    ') : '';
}
