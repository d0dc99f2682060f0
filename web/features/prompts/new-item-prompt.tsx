import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { filesPath } from '../../paths';
import { NamePrompt } from './name-prompt';
import { createItemAtom } from './state';

/** The newDir and newFile prompts: a name, then the new item opens (product.md §4 'Create'). */
export function NewItemPrompt({ isDir, onClose }: { isDir: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useSetAtom(createItemAtom);
  const [, navigate] = useLocation();
  return (
    <NamePrompt
      title={isDir ? t('sidebar.newFolder') : t('sidebar.newFile')}
      message={isDir ? t('prompts.newDirMessage') : t('prompts.newFileMessage')}
      submitLabel={t('prompts.create')}
      onClose={onClose}
      onSubmit={async (name) => {
        const path = await create({ name, isDir });
        onClose();
        navigate(filesPath(path));
      }}
    />
  );
}
