import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import { joinPath, parentPath } from '../../paths';
import { PickerNewFolder } from './picker-new-folder';
import { openPickerAtom, pickerAtom } from './state';

interface FolderPickerProps {
  start: string;
  /** The chosen destination: the selected subfolder, else the folder shown. */
  onChange: (dest: string) => void;
}

/**
 * A folder picker that walks up ("Up") and down (double click or Enter on a folder): a `listbox`
 * named "Folders" (ui.md). A click selects a folder as the destination.
 */
export function FolderPicker({ start, onChange }: FolderPickerProps) {
  const { t } = useTranslation();
  const picker = useAtomValue(pickerAtom);
  const open = useSetAtom(openPickerAtom);
  const [chosen, setChosen] = useState<string | null>(null);

  useEffect(() => {
    void open(start);
  }, [open, start]);
  useEffect(() => onChange(chosen === null ? picker.path : joinPath(picker.path, chosen, true)), [chosen, picker.path, onChange]);

  const enter = (path: string): void => {
    setChosen(null);
    void open(path);
  };
  const onKey = (event: KeyboardEvent, name: string): void => {
    if (event.key !== 'Enter') return;
    // Enter opens the folder instead of submitting the dialog.
    event.preventDefault();
    enter(joinPath(picker.path, name, true));
  };

  return (
    <div className="picker">
      <div className="picker-bar">
        <button type="button" className="button button-small" disabled={picker.path === '/'} onClick={() => enter(parentPath(picker.path))}>
          <Icon name="up" /><span>{t('prompts.up')}</span>
        </button>
        <code className="picker-path" dir="ltr">{picker.path}</code>
      </div>
      <PickerNewFolder path={picker.path} onCreated={setChosen} />
      <div role="listbox" aria-label={t('listing.folders')} className="picker-list">
        {picker.folders?.map((name) => (
          <div key={name} role="option" aria-selected={chosen === name} tabIndex={0} className="picker-item"
            onClick={() => setChosen(chosen === name ? null : name)} onDoubleClick={() => enter(joinPath(picker.path, name, true))}
            onKeyDown={(e) => onKey(e, name)}>
            <Icon name="folder" className="item-icon folder" />
            <bdi>{name}</bdi>
          </div>
        ))}
        {picker.folders?.length === 0 && <p className="picker-empty">{t('prompts.noFolders')}</p>}
      </div>
    </div>
  );
}
