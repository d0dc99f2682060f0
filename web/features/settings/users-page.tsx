import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Spinner } from '../../components/spinner';
import { userEditPath } from '../../paths';
import { useSettled } from '../../state/settled';
import { SettingsShell } from './settings-shell';
import { usersAtom } from './users-state';

function UserTable() {
  const { t } = useTranslation();
  const users = useSettled(usersAtom);
  if (!users) return <Spinner label={t('app.loading')} />;
  return (
    <table className="table responsive-table">
      <thead>
        <tr>
          <th scope="col">{t('login.username')}</th>
          <th scope="col">{t('users.admin')}</th>
          <th scope="col">{t('users.scope')}</th>
          <th scope="col"><span className="visually-hidden">{t('users.edit')}</span></th>
        </tr>
      </thead>
      <tbody>
        {users.map((user) => (
          <tr key={user.id}>
            <td data-label={t('login.username')} className="cell-primary">{user.username}</td>
            <td data-label={t('users.admin')}>
              <span className={user.perm.admin ? 'badge badge-yes' : 'badge'}>{user.perm.admin ? t('users.yes') : t('users.no')}</span>
            </td>
            <td data-label={t('users.scope')} className="mono">{user.scope}</td>
            <td className="cell-action">
              <Link href={userEditPath(user.id)} aria-label={`${t('users.edit')} ${user.username}`}>{t('users.edit')}</Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** User Management: every user, with an edit link each and a New button (product.md §2). */
export function UsersPage() {
  const { t } = useTranslation();
  return (
    <SettingsShell>
      <section className="card settings-card wide">
        <div className="card-header">
          <h2 className="card-title">{t('titles.users')}</h2>
          <Link className="button button-primary" href={userEditPath('new')}>{t('users.new')}</Link>
        </div>
        <UserTable />
      </section>
    </SettingsShell>
  );
}
