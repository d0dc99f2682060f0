import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createItem } from '../../api/resources';
import { Icon } from '../../components/icon';
import { statusOf } from '../../lib/errors';
import { failureText } from '../../lib/notice';
import { abilitiesAtom } from '../../state/abilities';
import { notifyAtom } from '../../state/notices';
import { openPickerAtom } from './state';

interface PickerNewFolderProps {
  /** The folder the picker shows, where the new folder goes. */
  path: string;
  /** Called with the new folder's name once it exists and the picker lists it. */
  onCreated: (name: string) => void;
}

/**
 * "New folder" inside the move and copy picker: a name (trimmed, not empty), then the folder is
 * created where the picker stands, listed and chosen as the destination. Only with the create
 * permission. Enter creates and Esc closes this form, not the dialog around it.
 */
export function PickerNewFolder({ path, onCreated }: PickerNewFolderProps) {
  const { t } = useTranslation();
  const may = useAtomValue(abilitiesAtom).create;
  const open = useSetAtom(openPickerAtom);
  const notify = useSetAtom(notifyAtom);
  const [name, setName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!may) return null;
  if (name === null) {
    return (
      <button type="button" className="button button-small" onClick={() => setName('')}>
        <Icon name="folderPlus" /><span>{t('sidebar.newFolder')}</span>
      </button>
    );
  }

  const create = async (): Promise<void> => {
    const trimmed = name.trim();
    if (!trimmed || busy) return;
    setBusy(true);
    try {
      await createItem(path, trimmed, true);
      await open(path);
      setName(null);
      onCreated(trimmed);
    } catch (error) {
      notify({ kind: 'error', message: statusOf(error) === 409 ? { key: 'prompts.exists' } : failureText(error, true) });
    } finally {
      setBusy(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== 'Enter' && event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    if (event.key === 'Enter') void create();
    else setName(null);
  };

  return (
    <div className="picker-new" role="group" aria-label={t('sidebar.newFolder')}>
      <input className="input" value={name} aria-label={t('prompts.name')} autoComplete="off" spellCheck={false} dir="auto"
        autoFocus onChange={(e) => setName(e.target.value)} onKeyDown={onKeyDown} />
      <button type="button" className="button button-small" onClick={() => setName(null)}>{t('prompts.cancel')}</button>
      <button type="button" className="button button-small button-primary" disabled={busy || !name.trim()} onClick={() => void create()}>{t('prompts.create')}</button>
    </div>
  );
}
