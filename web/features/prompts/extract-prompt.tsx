import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Dialog } from '../../components/dialog';
import { Checkbox, TextField } from '../../components/fields';
import { archiveStem } from '../../lib/archive-name';
import { statusOf } from '../../lib/errors';
import { failureText, type NoticeText } from '../../lib/notice';
import { messageOf } from '../../lib/server-message';
import { joinPath, parentPath } from '../../paths';
import { abilitiesAtom } from '../../state/abilities';
import type { Target } from '../../state/listing';
import { dismissNoticeAtom, notifyAtom, progressNoticeAtom } from '../../state/notices';
import { extractAtom } from './extract-state';
import { FolderPicker } from './folder-picker';

/** What went wrong, in words: the refused entry by name, a damaged archive, a conflict, a limit. */
function extractFailure(error: unknown, t: TFunction, folder: string): NoticeText {
  const status = statusOf(error);
  const message = status === 400 && error instanceof Error ? (messageOf(error.message) ?? '') : '';
  const refused = /^refused entry "(.*)": /s.exec(message);
  if (refused) return { text: t('extract.refused', { name: refused[1] }) };
  if (message.startsWith('malformed archive')) return { text: t('extract.malformed') };
  if (message.startsWith('not an archive')) return { text: t('extract.notArchive') };
  if (status === 409) return { text: t('extract.conflict', { folder }) };
  if (status === 413) return { text: t('extract.tooLarge') };
  return failureText(error, true);
}

/**
 * Extract (beyond.md §5): pick the folder, name the new folder (empty: straight into the one
 * picked), then "Extract". The dialog closes at once; a progress notice stays while the server
 * works, then a success or an error naming what was refused.
 */
export function ExtractPrompt({ item, onClose }: { item: Target; onClose: () => void }) {
  const { t } = useTranslation();
  const has = useAtomValue(abilitiesAtom);
  const extract = useSetAtom(extractAtom);
  const notify = useSetAtom(notifyAtom);
  const dismiss = useSetAtom(dismissNoticeAtom);
  const startProgress = useSetAtom(progressNoticeAtom);
  const from = parentPath(item.path);
  const [picked, setPicked] = useState(from);
  const [name, setName] = useState(archiveStem(item.name));
  const [override, setOverride] = useState(false);
  const choose = useCallback((path: string) => setPicked(path), []);
  const folder = name.trim() === '' ? picked : joinPath(picked, name.trim(), true);
  const badName = /[/\\]/.test(name) || name.trim() === '.' || name.trim() === '..';

  const confirm = (): void => {
    if (badName) return;
    onClose();
    const progress = startProgress({ text: t('extract.running', { name: item.name }) });
    extract({ archive: item.path, dest: folder, override })
      .then(() => notify({ kind: 'success', message: { text: t('extract.done', { folder }) } }))
      .catch((error: unknown) => notify({ kind: 'error', message: extractFailure(error, t, folder) }))
      .finally(() => dismiss(progress));
  };

  return (
    <Dialog title={t('extract.title')} onClose={onClose} onSubmit={confirm} className="dialog-wide"
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>
          <button type="submit" className="button button-primary" disabled={badName} data-autofocus>{t('extract.action')}</button>
        </>
      }>
      <p>{t('extract.message', { name: item.name })}</p>
      <FolderPicker start={from} onChange={choose} />
      <TextField label={t('extract.folderName')} value={name} onChange={setName} help={t('extract.folderHelp')} valid={badName ? false : undefined} />
      {has.modify && <Checkbox label={t('extract.override')} checked={override} onChange={setOverride} />}
      <p className="extract-into">{t('extract.into', { folder })}</p>
    </Dialog>
  );
}
