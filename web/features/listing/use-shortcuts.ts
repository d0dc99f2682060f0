import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import { arrivingAtom, clearSelectionAtom, itemsAtom, selectedAtom } from '../../state/listing';
import { promptAtom, showPromptAtom } from '../../state/prompts';
import type { FileActions } from './use-file-actions';

function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

type Handler = (actions: FileActions) => void;

// product.md §2 'Keyboard'. Keys with Ctrl (Cmd on a Mac):
const WITH_CTRL: Record<string, Handler> = {
  c: (a) => a.copyToClipboard('c'),
  x: (a) => a.copyToClipboard('x'),
  v: (a) => a.paste(),
  s: (a) => a.can.download && a.download(),
  f: (a) => a.search(),
};
const PLAIN: Record<string, Handler> = {
  F2: (a) => a.rename(),
  Delete: (a) => a.remove(),
};

/** The files screen's keyboard shortcuts; none fires while a dialog is open or a field has focus. */
export function useShortcuts(actions: FileActions): void {
  const prompt = useAtomValue(promptAtom);
  const items = useAtomValue(itemsAtom);
  // Until a large folder has fully arrived, Ctrl+A and the rest would act on part of it.
  const arriving = useAtomValue(arrivingAtom);
  const setSelected = useSetAtom(selectedAtom);
  const clear = useSetAtom(clearSelectionAtom);
  const showPrompt = useSetAtom(showPromptAtom);
  // The listener is added once; it reads the latest values through this ref.
  const latest = useRef({ actions, prompt, items, arriving });
  useEffect(() => {
    latest.current = { actions, prompt, items, arriving };
  });

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const { actions: a, prompt: open, items: all, arriving: busy } = latest.current;
      if (event.key === 'F1') {
        event.preventDefault();
        if (!open) showPrompt({ kind: 'help' });
        return;
      }
      if (open || busy || typing(event.target)) return;
      const ctrl = event.ctrlKey || event.metaKey;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      if (ctrl && key === 'a') {
        event.preventDefault();
        setSelected(new Set(all.map((item) => item.name)));
      } else if (ctrl && WITH_CTRL[key]) {
        event.preventDefault();
        WITH_CTRL[key](a);
      } else if (!ctrl && PLAIN[key]) {
        event.preventDefault();
        PLAIN[key](a);
      } else if (key === 'Escape') {
        clear();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setSelected, clear, showPrompt]);
}
