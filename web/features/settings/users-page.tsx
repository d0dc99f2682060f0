import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { userEditPath } from '../../paths';
import { SettingsShell } from './settings-shell';
import { usersAtom } from './users-state';

function UserTable() {
  const { t } = useTranslation();
  const users = useAtomValue(usersAtom);
  return (
    <table className="table">
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
            <td>{user.username}</td>
            <td>{user.perm.admin ? '✓' : ''}</td>
            <td className="mono">{user.scope}</td>
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
          <h1 className="card-title">{t('titles.users')}</h1>
          <Link className="button button-primary" href={userEditPath('new')}>{t('users.new')}</Link>
        </div>
        <UserTable />
      </section>
    </SettingsShell>
  );
}
