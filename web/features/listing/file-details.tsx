import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { apiUrl } from '../../api/http';
import type { FileInfo } from '../../api/types';
import { Icon } from '../../components/icon';
import { currentLang } from '../../i18n';
import { formatDateTime, formatSize } from '../../lib/format';
import { apiPaths } from '../../paths';
import { userAtom } from '../../state/session';

/** A single file: its size, date and a download link (the auth cookie authorises the GET). */
export function FileDetails({ file }: { file: FileInfo }) {
  const { t } = useTranslation();
  const user = useAtomValue(userAtom);
  const lang = currentLang();
  return (
    <section className="file-details card" aria-label={t('file.details')}>
      <dl>
        <dt>{t('listing.size')}</dt>
        <dd>{formatSize(file.size, lang)}</dd>
        <dt>{t('listing.modified')}</dt>
        <dd><time dateTime={file.modified}>{formatDateTime(file.modified, lang)}</time></dd>
      </dl>
      {user?.perm.download && (
        <a className="button button-primary" href={apiUrl(apiPaths.raw(file.path))} download={file.name}>
          <Icon name="download" />
          <span>{t('file.download')}</span>
        </a>
      )}
    </section>
  );
}
