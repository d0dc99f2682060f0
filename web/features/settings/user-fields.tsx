import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Checkbox, LanguageSelect, TextField } from '../../components/fields';
import { configAtom } from '../../state/config';
import { CommandsField } from './commands-field';
import { PermissionsFieldset } from './permissions-fieldset';
import { QuotaField } from './quota-field';
import { RulesEditor } from './rules-editor';
import type { UserForm } from './use-user-form';

/** Unknown while empty; the server counts bytes, not characters (api.md §3.2). */
function passwordValidity(password: string, min: number): boolean | undefined {
  return password === '' ? undefined : new TextEncoder().encode(password).length >= min;
}

/** Username, password, scope (or a home folder), language and the password lock. */
function AccountFields({ form }: { form: UserForm }) {
  const { t } = useTranslation();
  const { user, isNew, setField } = form;
  return (
    <>
      <TextField label={t('login.username')} value={user.username} required autoComplete="off" spellCheck={false} onChange={(v) => setField('username', v)} />
      <TextField label={t('login.password')} type="password" value={user.password ?? ''} required={isNew} autoComplete="new-password"
        placeholder={isNew ? undefined : t('users.passwordPlaceholder')} onChange={(v) => setField('password', v)}
        help={t('users.passwordRule', { min: form.minPassword })} valid={passwordValidity(user.password ?? '', form.minPassword)} />
      <TextField label={t('users.scope')} value={user.scope} mono spellCheck={false} disabled={form.createHome} onChange={(v) => setField('scope', v)} />
      {form.offerHome && <Checkbox label={t('users.createHome')} help={t('users.createHomeHelp')} checked={form.createHome} onChange={form.setCreateHome} />}
      <LanguageSelect label={t('settings.language')} value={user.locale} onChange={(locale) => setField('locale', locale)} />
      <Checkbox label={t('users.lockPassword')} checked={user.lockPassword} disabled={user.perm.admin} onChange={(on) => setField('lockPassword', on)} />
    </>
  );
}

/** Every field of the user edit form (product.md §2, §3): account, permissions, commands, rules. */
export function UserFields({ form }: { form: UserForm }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const { user, setField } = form;
  return (
    <>
      <AccountFields form={form} />
      <QuotaField quota={user.quota ?? 0} onChange={(bytes) => setField('quota', bytes)} />
      <PermissionsFieldset perm={user.perm} onChange={form.setPermission} />
      {config.EnableExec && <CommandsField commands={user.commands} onChange={(commands) => setField('commands', commands)} />}
      <RulesEditor rules={user.rules} help={t('rules.userHelp')} onChange={(rules) => setField('rules', rules)} />
      {/* json auth asks for the admin's own password before changing accounts (api.md §3.2). */}
      {config.AuthMethod === 'json' && (
        <TextField label={t('users.currentPassword')} type="password" value={form.currentPassword} autoComplete="current-password"
          onChange={form.setCurrentPassword} />
      )}
    </>
  );
}
