import { useTranslation } from 'react-i18next';
import { errorKind, type ErrorKind } from '../lib/errors';
import { Icon, type IconName } from './icon';

const ICONS: Record<ErrorKind, IconName> = {
  connection: 'offline',
  forbidden: 'lock',
  notFound: 'searchOff',
  internal: 'warning',
};

/** The error text of product.md §8 for a request status (0 = no connection). */
export function ErrorMessage({ status }: { status: number }) {
  const { t } = useTranslation();
  const kind = errorKind(status);
  return (
    <div className="error-message" role="alert">
      <Icon name={ICONS[kind]} className="error-icon" />
      <h2>{t(`errors.${kind}`)}</h2>
    </div>
  );
}
