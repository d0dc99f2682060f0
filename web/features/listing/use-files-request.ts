import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { usePathname } from 'wouter/use-browser-location';
import { resourcePathFromLocation } from '../../paths';
import { configAtom } from '../../state/config';
import { clearSelectionAtom } from '../../state/listing';
import { searchOpenAtom, shellOpenAtom } from '../../state/panels';
import { closePromptAtom } from '../../state/prompts';
import { clearRequestAtom, loadResourceAtom, reloadAtom, requestAtom } from '../../state/request';
import { useTitleDetail } from '../../state/title';
import { anchorAtom, focusIndexAtom } from './state';

/**
 * Keeps requestAtom on the route's path: fetches on every path change and reload, clears the
 * request state on leaving and titles the page with the item's name. A new path resets the
 * selection, the multiple mode and the prompt; every fetch resets the selection (product.md §4).
 */
export function useFilesRequest() {
  const config = useAtomValue(configAtom);
  // The raw pathname, decoded segment by segment: names may hold '#', '?' or '%'.
  const path = resourcePathFromLocation(usePathname(), config.BaseURL);
  const request = useAtomValue(requestAtom);
  const reload = useAtomValue(reloadAtom);
  const load = useSetAtom(loadResourceAtom);
  const clear = useSetAtom(clearRequestAtom);
  const clearSelection = useSetAtom(clearSelectionAtom);
  const closePrompt = useSetAtom(closePromptAtom);
  const setFocus = useSetAtom(focusIndexAtom);
  const setAnchor = useSetAtom(anchorAtom);

  // The prompt of the path before closes in the commit of the new path (before the browser paints
  // it, so no click can land in between). Not on mounting: the screen is a lazy chunk, and a
  // "New folder" clicked in the sidebar while it loaded must stay open.
  const shownPath = useRef(path);
  useLayoutEffect(() => {
    if (shownPath.current !== path) closePrompt();
    shownPath.current = path;
  }, [path, closePrompt]);
  useEffect(() => {
    clearSelection(true);
    setFocus(0);
    setAnchor(null);
  }, [path, clearSelection, setFocus, setAnchor]);
  // A layout effect: the request leaves before the browser paints the route change, not a frame
  // later (a passive effect after a popstate or a click waits for that paint).
  useLayoutEffect(() => {
    clearSelection();
    void load(path);
  }, [path, reload, load, clearSelection]);
  const setSearch = useSetAtom(searchOpenAtom);
  const setShell = useSetAtom(shellOpenAtom);
  // Leaving the files screen clears the request and closes the search and the shell (product.md §2).
  useEffect(() => () => {
    clear();
    setSearch(false);
    setShell(false);
  }, [clear, setSearch, setShell]);

  const name = request.path === path ? (request.resource?.name ?? '') : '';
  useTitleDetail(name);

  return { path, request: request.path === path ? request : null };
}
