import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { apiUrl } from '../../api/http';
import type { Resource } from '../../api/types';
import { ErrorMessage } from '../../components/error-message';
import { Icon, type IconName } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { startDownload } from '../../lib/download';
import { apiPaths, filesPath, parentPath } from '../../paths';
import { abilitiesAtom } from '../../state/abilities';
import { showPromptAtom } from '../../state/prompts';
import { DiscardDialog } from './discard-dialog';
import { saveTextAtom } from './state';
import { useCodeMirror } from './use-code-mirror';
import { useLeaveGuard } from './use-leave-guard';

function Action({ icon, label, onClick }: { icon: IconName; label: string; onClick: () => void }) {
  return (
    <button type="button" className="icon-button action" aria-label={label} title={label} onClick={onClick}>
      <Icon name={icon} />
    </button>
  );
}

/** Saving: one PUT at a time, of the document as it was when asked; the text stays whatever happens. */
function useSave(path: string, editor: Pick<ReturnType<typeof useCodeMirror>, 'handleRef' | 'setDirty'>, readOnly: boolean) {
  const save = useSetAtom(saveTextAtom);
  const [saving, setSaving] = useState(false);
  const busy = useRef(false);
  const run = async (): Promise<void> => {
    const handle = editor.handleRef.current;
    if (!handle || readOnly || busy.current) return;
    busy.current = true;
    setSaving(true);
    const doc = handle.snapshot();
    if (await save({ path, content: doc.toString() })) editor.setDirty(handle.markSaved(doc));
    busy.current = false;
    setSaving(false);
  };
  return { saving, save: () => void run() };
}

/** Ctrl/Cmd+S anywhere on the page saves (the editor handles it itself while it has focus). */
function useSaveKey(save: () => void): void {
  const latest = useRef(save);
  useEffect(() => {
    latest.current = save;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 's') return;
      // Before the files screen's own Ctrl+S (download), which listens on the bubbling phase.
      event.preventDefault();
      event.stopPropagation();
      latest.current();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
}

/**
 * A text file in CodeMirror (product.md §2: text and textImmutable open in an editor): Save,
 * Ctrl/Cmd+S, and a "Discard changes?" question before leaving with unsaved changes. Read-only for
 * textImmutable, for users without the modify permission, and when the text was not sent (no
 * download permission): saving it would empty the file.
 */
export function EditorPage({ file, path }: { file: Resource; path: string }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const may = useAtomValue(abilitiesAtom);
  const showPrompt = useSetAtom(showPromptAtom);
  const withheld = file.content === undefined && file.size > 0;
  const readOnly = file.type === 'textImmutable' || !may.modify || withheld;
  const saveRef = useRef<() => void>(() => undefined);
  const { hostRef, handleRef, status, dirty, setDirty } = useCodeMirror({ name: file.name, content: file.content ?? '', readOnly }, () => saveRef.current());
  const { saving, save } = useSave(path, { handleRef, setDirty }, readOnly);
  useLayoutEffect(() => {
    saveRef.current = save;
  });
  useSaveKey(save);
  const guard = useLeaveGuard(() => handleRef.current?.isDirty() ?? false, navigate);
  const canDownload = may.download;
  return (
    <section className="editor" aria-labelledby="editor-title">
      <div className="editor-bar">
        <h1 id="editor-title" className="editor-title">
          <bdi>{file.name}</bdi>
          {dirty && <span className="editor-dirty" title={t('editor.unsaved')}><span className="visually-hidden">{t('editor.unsaved')}</span></span>}
          {readOnly && <span className="badge">{t('editor.readOnly')}</span>}
        </h1>
        <div className="toolbar" role="toolbar" aria-label={t('actions.toolbar')}>
          {canDownload && <Action icon="download" label={t('actions.download')} onClick={() => startDownload(apiUrl(apiPaths.raw(path)))} />}
          <Action icon="info" label={t('actions.info')} onClick={() => showPrompt({ kind: 'info', items: [{ path, name: file.name, isDir: false }] })} />
          <button type="button" className="button button-primary editor-save" disabled={readOnly || saving || status !== 'ready'} onClick={save}>
            <Icon name="check" /><span>{t('editor.save')}</span>
          </button>
          <Action icon="close" label={t('editor.close')} onClick={() => guard.leave(filesPath(parentPath(path)))} />
        </div>
      </div>
      {status === 'loading' && <Spinner label={t('app.loading')} />}
      {status === 'failed' && <ErrorMessage status={0} />}
      {/* Left to right whatever the page's direction: code reads so; each line still follows its own text. */}
      <div ref={hostRef} className="editor-host" dir="ltr" hidden={status === 'failed'} />
      {guard.asking && <DiscardDialog name={file.name} onStay={guard.stay} onDiscard={guard.discard} />}
    </section>
  );
}
