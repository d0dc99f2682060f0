import { useAtomValue } from 'jotai';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { themeAtom } from '../../state/theme';
import type { EditorHandle } from './codemirror';

export interface EditorSource {
  name: string;
  content: string;
  readOnly: boolean;
}

export type EditorStatus = 'loading' | 'ready' | 'failed';

/**
 * Loads CodeMirror (its own chunk) on first use and mounts it in `hostRef` with the file's text.
 * The editor is made once per mount: a later answer for the same path must not replace the text
 * being edited (the files page keys the editor by path).
 */
export function useCodeMirror(source: EditorSource, onSave: () => void) {
  const hostRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<EditorHandle | null>(null);
  const [status, setStatus] = useState<EditorStatus>('loading');
  const [dirty, setDirty] = useState(false);
  const dark = useAtomValue(themeAtom) === 'dark';
  const latest = useRef({ source, onSave, dark });
  useLayoutEffect(() => {
    latest.current = { source, onSave, dark };
  });

  useEffect(() => {
    let handle: EditorHandle | null = null;
    let cancelled = false;
    import('./codemirror').then(({ createEditor }) => {
      const parent = hostRef.current;
      if (cancelled || !parent) return;
      const { source: file, dark: isDark } = latest.current;
      handle = createEditor({ parent, doc: file.content, name: file.name, readOnly: file.readOnly, dark: isDark,
        onSave: () => latest.current.onSave(), onFirstChange: () => setDirty(true) });
      handleRef.current = handle;
      setStatus('ready');
    }, () => {
      if (!cancelled) setStatus('failed');
    });
    return () => {
      cancelled = true;
      handle?.destroy();
      handleRef.current = null;
    };
  }, []);

  useEffect(() => handleRef.current?.setDark(dark), [dark]);
  return { hostRef, handleRef, status, dirty, setDirty };
}
