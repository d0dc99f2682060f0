import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchBytes, fetchText } from '../../api/http';
import type { FileInfo } from '../../api/types';
import { Spinner } from '../../components/spinner';
import { rawInlinePath } from './sources';

type Phase = 'loading' | 'ready' | 'failed';

/** STL and OBJ models in 3D (product.md §2): drag to orbit, wheel or pinch to zoom. */
export function ModelViewer({ file }: { file: FileInfo }) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const label = t('preview.model', { name: file.name });
  const path = rawInlinePath(file);
  const kind = file.type;
  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    let live = true;
    let unmount: (() => void) | undefined;
    const run = async (): Promise<void> => {
      // three.js is a chunk of its own, fetched with the model.
      const [{ mountModel }, data] = await Promise.all([
        import('./model-scene'),
        kind === 'stl' ? fetchBytes(path).then((bytes) => ({ kind: 'stl' as const, bytes })) : fetchText(path).then((text) => ({ kind: 'obj' as const, text })),
      ]);
      if (!live) return;
      unmount = mountModel(element, data, label);
      setPhase('ready');
    };
    run().catch(() => live && setPhase('failed'));
    return () => {
      live = false;
      unmount?.();
    };
  }, [path, kind, label]);
  return (
    <div className="preview-stage">
      <div ref={host} className="preview-model" data-state={phase} />
      {phase === 'loading' && <Spinner label={t('app.loading')} />}
      {phase === 'failed' && <p className="preview-message">{t('preview.modelFailed')}</p>}
    </div>
  );
}
