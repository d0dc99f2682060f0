import { atom, useSetAtom } from 'jotai';
import { useEffect } from 'react';

/**
 * The most specific part of the document title: the open file's or shared item's name, set by
 * the screen that knows it, '' elsewhere. The route (web/routes.tsx) is the one writer of
 * document.title, from this and its own title: when a screen wrote the title too, React ran the
 * screen's effect before the route's, and any change of the language or configuration let the
 * route's plain "Files - filemgr" replace "todo.md - Files - filemgr" (seen in CI).
 */
export const titleDetailAtom = atom('');

/** Names the page's item (`name`, '' while unknown) in the title while the calling screen is shown. */
export function useTitleDetail(name: string): void {
  const setTitleDetail = useSetAtom(titleDetailAtom);
  useEffect(() => setTitleDetail(name), [name, setTitleDetail]);
  useEffect(() => () => setTitleDetail(''), [setTitleDetail]);
}
