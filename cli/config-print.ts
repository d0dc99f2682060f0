import type { Configuration } from '../server/setup/config-transfer';
import { autherFor } from '../server/setup/config-transfer';
import type { Permissions } from '../server/state/schema';

type Row = [string, string | number | boolean];

function block(title: string, rows: Row[], indent = ''): string[] {
  const width = Math.max(...rows.map(([label]) => label.length)) + 1;
  const lines = rows.map(([label, value]) => `${indent}  ${`${label}:`.padEnd(width)} ${String(value)}`.trimEnd());
  return [`${indent}${title}`, ...lines];
}

const octal = (n: number): string => `0o${n.toString(8)}`;

function settingsLines(c: Configuration): string[] {
  const s = c.settings;
  return [
    ...block('Settings:', [
      ['Sign up', s.signup], ['Hide login button', s.hideLoginButton], ['Create user dir', s.createUserDir],
      ['User home base path', s.userHomeBasePath], ['Auth method', s.authMethod], ['Logout page', s.logoutPage],
      ['Minimum password length', s.minimumPasswordLength], ['File mode', octal(s.fileMode)], ['Dir mode', octal(s.dirMode)],
      ['Shell', s.shell.join(' ')], ['Global rules', s.rules.length], ['Days of activity kept', s.activityDays ?? 90],
    ]),
    ...block('Branding:', [
      ['Name', s.branding.name], ['Files override', s.branding.files], ['Disable external links', s.branding.disableExternal],
      ['Disable used percentage', s.branding.disableUsedPercentage], ['Color', s.branding.color], ['Theme', s.branding.theme],
      ['Issue tracker', s.branding.issueTracker],
    ]),
    ...block('Uploads (tus):', [['Chunk size', s.tus.chunkSize], ['Retry count', s.tus.retryCount]]),
  ];
}

function serverLines(c: Configuration): string[] {
  const v = c.server;
  return block('Server:', [
    ['Root', v.root], ['Base URL', v.baseURL], ['Address', v.address], ['Port', v.port], ['Socket', v.socket],
    ['TLS cert', v.tlsCert], ['TLS key', v.tlsKey], ['Log', v.log], ['Token expiration time', v.tokenExpirationTime],
    ['Exec enabled', v.enableExec], ['Thumbnails', v.enableThumbnails], ['Resize previews', v.resizePreview],
    ['Type detection by header', v.typeDetectionByHeader], ['Follow external symlinks', v.followExternalSymlinks],
  ]);
}

function defaultsLines(c: Configuration): string[] {
  const d = c.settings.defaults;
  const perms = (Object.keys(d.perm) as (keyof Permissions)[]).map((k): Row => [`${k[0]?.toUpperCase() ?? ''}${k.slice(1)}`, d.perm[k]]);
  return [
    ...block('User defaults:', [
      ['Scope', d.scope], ['Locale', d.locale], ['View mode', d.viewMode], ['Single click', d.singleClick],
      ['Redirect after copy/move', d.redirectAfterCopyMove], ['Commands', d.commands.join(' ')],
      ['Sorting by', d.sorting.by], ['Sorting asc', d.sorting.asc], ['Hide dotfiles', d.hideDotfiles],
      ['Date format', d.dateFormat], ['Editor theme', d.aceEditorTheme],
    ]),
    ...block('Permissions:', perms, '  '),
  ];
}

/**
 * The configuration as `config cat` prints it: settings, server values, user defaults and the
 * raw auth method configuration. The signing key is never printed and the reCAPTCHA secret is masked: this output
 * ends up in terminals and CI logs.
 */
export function formatConfig(c: Configuration): string {
  const auther = autherFor(c.settings.authMethod, c.auther);
  if (auther.recaptcha?.secret) auther.recaptcha = { ...auther.recaptcha, secret: '********' };
  const lines = [...settingsLines(c), '', ...serverLines(c), '', ...defaultsLines(c), '', 'Auth method configuration (raw):', JSON.stringify(auther, null, 2)];
  return `${lines.join('\n')}\n`;
}
