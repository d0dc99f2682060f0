import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { searchOpenAtom } from '../../state/panels';
import { promptAtom } from '../../state/prompts';
import type { PreviewActions } from './use-preview-actions';

/** Elements that use these keys themselves: fields, buttons and links (Enter), media players (arrows). */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  if (key === 'Enter') return ['BUTTON', 'A', 'VIDEO', 'AUDIO'].includes(target.tagName);
  return key.startsWith('Arrow') && ['VIDEO', 'AUDIO'].includes(target.tagName);
}

type Action = 'next' | 'previous' | 'close' | 'remove' | 'rename';

/** product.md §2 'Keyboard': Enter or Right next, Left previous, Esc close; mirrored right to left. */
function actionOf(key: string, rtl: boolean): Action | undefined {
  switch (key) {
    case 'Enter': return 'next';
    case 'ArrowRight': return rtl ? 'previous' : 'next';
    case 'ArrowLeft': return rtl ? 'next' : 'previous';
    case 'Escape': return 'close';
    case 'Delete': return 'remove';
    case 'F2': return 'rename';
    default: return undefined;
  }
}

/** The preview's keys; none fires while a dialog or the search is open. */
export function usePreviewKeys(actions: PreviewActions): void {
  const prompt = useAtomValue(promptAtom);
  const search = useAtomValue(searchOpenAtom);
  const latest = useRef({ actions, busy: prompt !== null || search });
  useEffect(() => {
    latest.current = { actions, busy: prompt !== null || search };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const { actions: a, busy } = latest.current;
      if (busy || event.altKey || event.defaultPrevented) return;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        // Ctrl+S downloads the file on screen; the files screen's own handler would ask about the folder.
        event.preventDefault();
        event.stopImmediatePropagation();
        a.download();
        return;
      }
      if (event.ctrlKey || event.metaKey || ownsKey(event.target, event.key)) return;
      const action = actionOf(event.key, document.documentElement.dir === 'rtl');
      if (!action) return;
      event.preventDefault();
      a[action]();
    };
    // Capture: ahead of the files screen's listener, which was added first.
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
}
