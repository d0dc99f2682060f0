import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { apiUrl } from '../../api/http';
import type { PublicResource } from '../../api/types';
import { Icon, type IconName } from '../../components/icon';
import { startDownload } from '../../lib/download';
import { apiPaths, joinPath, publicArchivePath, withQuery } from '../../paths';
import { notifyAtom } from '../../state/notices';
import { shareMultipleAtom, shareSelectedAtom } from './state';

function Action({ icon, label, onClick, pressed }: { icon: IconName; label: string; onClick: () => void; pressed?: boolean }) {
  return (
    <button type="button" className="icon-button action" aria-label={label} title={label} aria-pressed={pressed} onClick={onClick}>
      <Icon name={icon} />
    </button>
  );
}

/**
 * The header actions of a shared folder (product.md §2, Share page): Download of the selection (one
 * file directly, several items as one zip), copy the download link of one selected file, and the
 * multiple selection mode.
 */
export function ShareToolbar({ folder, hash }: { folder: PublicResource & { items: PublicResource[] }; hash: string }) {
  const { t } = useTranslation();
  const selectedNames = useAtomValue(shareSelectedAtom);
  const [multiple, setMultiple] = useAtom(shareMultipleAtom);
  const notify = useSetAtom(notifyAtom);
  const selected = folder.items.filter((item) => selectedNames.has(item.name));
  const base = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  const pathOf = (item: PublicResource): string => joinPath(base, item.name, item.isDir);
  const single = selected.length === 1 && selected[0] && !selected[0].isDir ? selected[0] : null;
  const fileUrl = single ? apiUrl(withQuery(apiPaths.publicDownload(hash, pathOf(single)), { token: folder.token })) : '';

  const download = (): void => {
    if (fileUrl) startDownload(fileUrl);
    else startDownload(apiUrl(publicArchivePath(hash, selected.map(pathOf), folder.token)));
  };
  const copy = (): void => {
    const link = new URL(fileUrl, window.location.href).href;
    navigator.clipboard.writeText(link).then(
      () => notify({ kind: 'success', message: { key: 'shares.copied' } }),
      () => notify({ kind: 'error', message: { key: 'errors.internal' } }),
    );
  };
  return (
    <div className="toolbar" role="toolbar" aria-label={t('actions.toolbar')}>
      {selected.length > 0 && <Action icon="download" label={t('actions.download')} onClick={download} />}
      {single && <Action icon="copy" label={t('sharePage.copyLink')} onClick={copy} />}
      <Action icon="selectMultiple" label={t('actions.selectMultiple')} pressed={multiple} onClick={() => setMultiple(!multiple)} />
    </div>
  );
}
