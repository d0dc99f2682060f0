import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ErrorMessage } from '../../components/error-message';
import { filesPath } from '../../paths';

/** The /403, /404 and /500 screens (and any failed page fetch): the text of product.md §8. */
export function ErrorPage({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <section className="error-page">
      <ErrorMessage status={status} />
      <Link className="button" href={filesPath()}>{t('errors.goHome')}</Link>
    </section>
  );
}
