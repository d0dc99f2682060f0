import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { renameItemAtom } from '../../state/file-ops';
import type { Target } from '../../state/listing';
import { NamePrompt } from './name-prompt';

interface RenamePromptProps {
  item: Target;
  onClose: () => void;
  /** Runs with the new path after a rename (the preview navigates to it, product.md §4). */
  onDone?: (path: string) => void;
}

/** Rename: the new name, trimmed and not empty; the listing reloads (product.md §4). */
export function RenamePrompt({ item, onClose, onDone }: RenamePromptProps) {
  const { t } = useTranslation();
  const rename = useSetAtom(renameItemAtom);
  return (
    <NamePrompt
      title={t('prompts.renameTitle')}
      message={t('prompts.renameMessage', { name: item.name })}
      submitLabel={t('actions.rename')}
      initial={item.name}
      onClose={onClose}
      onSubmit={async (name) => {
        const to = name === item.name ? undefined : await rename({ item, name });
        onClose();
        if (to !== undefined) onDone?.(to);
      }}
    />
  );
}
