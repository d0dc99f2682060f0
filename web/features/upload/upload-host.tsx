import { useAtom, useAtomValue } from 'jotai';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import { folderName } from '../../paths';
import { folderAtom } from '../../state/listing';
import { ConflictPrompt } from './conflict-prompt';
import { chooserOpenAtom, conflictsAtom, jobsAtom } from './state';
import { UploadPrompt } from './upload-prompt';
import { UploadRegion } from './upload-region';
import { useChooser } from './use-chooser';
import { useDropZone } from './use-drop-zone';
import { useLeaveWarning } from './use-leave-warning';

/** Says where a drop from the desktop would go while files are dragged over the page. */
function DropHint({ dest }: { dest: string }) {
  const { t } = useTranslation();
  const folder = folderName(dest) || t('listing.root');
  return createPortal(
    <div className="upload-drop-hint" aria-hidden="true">
      <Icon name="upload" />
      <span>{t('upload.dropHere', { folder })}</span>
    </div>,
    document.body,
  );
}

/**
 * Browser uploads (product.md §2, §4): the Upload button's prompt and pickers, drops from the
 * desktop, the Replace prompt on name clashes and the queue's progress; mounted for users who may
 * create files, and kept while they move between folders so running uploads go on.
 */
export function UploadHost() {
  const { t } = useTranslation();
  const folder = useAtomValue(folderAtom);
  const jobs = useAtomValue(jobsAtom);
  const conflicts = useAtomValue(conflictsAtom);
  const [open, setOpen] = useAtom(chooserOpenAtom);
  const { fileInput, folderInput, pick, onChange } = useChooser(folder);
  const zone = useDropZone(folder);
  useLeaveWarning(jobs.length > 0);
  const conflict = conflicts[0];
  return (
    <>
      <input ref={fileInput} type="file" multiple hidden aria-label={t('upload.fileInput')} onChange={onChange} />
      <input ref={folderInput} type="file" multiple hidden aria-label={t('upload.folderInput')} onChange={onChange} />
      {open && <UploadPrompt onPick={pick} onClose={() => setOpen(false)} />}
      {conflict && !open && <ConflictPrompt key={`${conflict.dest}|${[...conflict.clashes].join('/')}`} conflict={conflict} />}
      {jobs.length > 0 && <UploadRegion />}
      {zone && <DropHint dest={zone.dest} />}
    </>
  );
}
