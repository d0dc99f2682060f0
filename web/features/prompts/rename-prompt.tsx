import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { renameItemAtom } from '../../state/file-ops';
import type { Target } from '../../state/listing';
import { NamePrompt } from './name-prompt';

/** Rename: the new name, trimmed and not empty; the listing reloads (product.md §4). */
export function RenamePrompt({ item, onClose }: { item: Target; onClose: () => void }) {
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
        if (name !== item.name) await rename({ item, name });
        onClose();
      }}
    />
  );
}
