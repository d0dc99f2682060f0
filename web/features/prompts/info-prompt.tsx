import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChecksumAlgo } from '../../api/resources';
import { Dialog } from '../../components/dialog';
import { currentLang } from '../../i18n';
import { formatDateTime, formatSize } from '../../lib/format';
import { failureText } from '../../lib/notice';
import { abilitiesAtom } from '../../state/abilities';
import { itemPath, itemsAtom, type Item, type Target } from '../../state/listing';
import { notifyAtom } from '../../state/notices';
import { requestAtom } from '../../state/request';
import { checksumAtom } from './state';

const ALGOS: [ChecksumAlgo, string][] = [['md5', 'MD5'], ['sha1', 'SHA1'], ['sha256', 'SHA256'], ['sha512', 'SHA512']];

function Checksums({ path }: { path: string }) {
  const { t } = useTranslation();
  const compute = useSetAtom(checksumAtom);
  const notify = useSetAtom(notifyAtom);
  const [sums, setSums] = useState<Partial<Record<ChecksumAlgo, string>>>({});
  const run = (algo: ChecksumAlgo): void => {
    compute({ path, algo }).then((hex) => setSums((s) => ({ ...s, [algo]: hex })), (error: unknown) => notify({ kind: 'error', message: failureText(error) }));
  };
  return (
    <div className="checksums">
      <h3 className="help-heading">{t('info.checksums')}</h3>
      <p className="field-help">{t('info.checksumHint')}</p>
      {ALGOS.map(([algo, label]) => (
        <div key={algo} className="checksum-row">
          <button type="button" className="button button-small" onClick={() => run(algo)}>{label}</button>
          {sums[algo] && <code className="checksum" aria-label={label}>{sums[algo]}</code>}
        </div>
      ))}
    </div>
  );
}

function Facts({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="facts">
      {rows.map(([term, value]) => (
        <div key={term} className="fact"><dt>{term}</dt><dd dir="auto">{value}</dd></div>
      ))}
    </dl>
  );
}

/** File information (product.md §2): of the selection, or of the folder on screen when none. */
export function InfoPrompt({ items, onClose }: { items: readonly Target[]; onClose: () => void }) {
  const { t } = useTranslation();
  const listed = useAtomValue(itemsAtom);
  const folder = useAtomValue(requestAtom).resource;
  // On the preview the route shows a file: the information is about that file.
  const all: readonly Item[] = folder && !folder.isDir ? [folder] : listed;
  const canDownload = useAtomValue(abilitiesAtom).download;
  const lang = currentLang();
  // A Set: after Ctrl+A in a large folder, both lists hold every item.
  const paths = new Set(items.map((target) => target.path));
  const chosen: readonly Item[] = items.length > 0 ? all.filter((i) => paths.has(itemPath(i))) : all;
  const single = items.length === 1 ? chosen[0] : undefined;
  const files = chosen.filter((i) => !i.isDir);
  const rows: [string, string][] = single
    ? [[t('info.name'), single.name], [t('info.path'), itemPath(single)], ...(single.isDir ? [] : [[t('info.size'), formatSize(single.size, lang)] as [string, string]]),
      [t('info.modified'), formatDateTime(single.modified, lang)]]
    : [[t('info.name'), items.length > 0 ? t('info.selection', { count: items.length }) : (folder?.name || t('listing.root'))],
      [t('info.folders'), String(chosen.length - files.length)], [t('info.files'), String(files.length)],
      [t('info.size'), formatSize(files.reduce((sum, f) => sum + f.size, 0), lang)],
      ...(items.length === 0 && folder ? [[t('info.modified'), formatDateTime(folder.modified, lang)] as [string, string]] : [])];
  return (
    <Dialog title={t('info.title')} onClose={onClose} onSubmit={onClose}
      actions={<button type="submit" className="button button-primary">{t('prompts.ok')}</button>}>
      <Facts rows={rows} />
      {single && !single.isDir && canDownload && <Checksums path={itemPath(single)} />}
    </Dialog>
  );
}
