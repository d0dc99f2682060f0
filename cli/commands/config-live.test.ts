import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { defaultServerConfig } from '../../server/config';
import type { AssetSource } from '../../server/lib/assets';
import { INDEX_TEMPLATE_KEY } from '../../server/plugins/web-assets/manifest';
import type { Database } from '../../server/state/schema';
import { openFileStore } from '../../server/state/store';
import { runCli } from '../../tests/support/cli-io';

const PASSWORD = 'a-long-Pa55word!';

/** Just the index template: the page configuration is what these tests read. */
const TEMPLATE: AssetSource = {
  read: (key) => (key === INDEX_TEMPLATE_KEY
    ? Buffer.from('<title>[{[ Title ]}]</title>[{[ ReCaptcha ]}]<script nonce="[{[ Nonce ]}]">window.FileBrowser = [{[ Json ]}];</script>')
    : undefined),
};

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function ok(cwd: string, ...argv: string[]): Promise<void> {
  const r = await runCli(argv, { cwd });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}

/** A database made by the CLI with an admin, and an app serving it, as `filemgr` would. */
async function running(...initFlags: string[]): Promise<{ cwd: string; app: FastifyInstance }> {
  const cwd = await mkdtemp(join(tmpdir(), 'filemgr-config-live-'));
  await ok(cwd, 'config', 'init', '--root', '.', ...initFlags);
  await ok(cwd, 'users', 'add', 'admin', PASSWORD, '--perm.admin');
  const { store } = await openFileStore(join(cwd, 'filemgr.json'));
  const app = await buildApp({ store, config: defaultServerConfig({ root: cwd }), assets: TEMPLATE });
  apps.push(app);
  return { cwd, app };
}

async function pageConfig(app: FastifyInstance): Promise<{ html: string; config: Record<string, unknown> }> {
  const res = await app.inject({ method: 'GET', url: '/' });
  expect(res.statusCode).toBe(200);
  const json = /window\.FileBrowser = (.*);<\/script>/.exec(res.body)?.[1] ?? 'null';
  return { html: res.body, config: JSON.parse(json) as Record<string, unknown> };
}

describe('filemgr config set while the server runs', () => {
  it('turns reCAPTCHA off with an explicitly empty --recaptcha.key', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'filemgr-config-live-'));
    await ok(cwd, 'config', 'init', '--recaptcha.key', 'site', '--recaptcha.secret', 'shh');
    await ok(cwd, 'config', 'set', '--recaptcha.key', '');
    const db = JSON.parse(await readFile(join(cwd, 'filemgr.json'), 'utf8')) as Database;
    expect(db.auther).toEqual({ recaptcha: null });
    await ok(cwd, 'config', 'set', '--recaptcha.key=site', '--recaptcha.secret=shh');
    await ok(cwd, 'config', 'set', '--recaptcha.secret=');
    expect((JSON.parse(await readFile(join(cwd, 'filemgr.json'), 'utf8')) as Database).auther).toEqual({ recaptcha: null });
  });

  it('shows the new values on the very next page load', async () => {
    const { cwd, app } = await running('--recaptcha.key', 'site', '--recaptcha.secret', 'shh');
    const before = await pageConfig(app);
    expect(before.config).toMatchObject({ ReCaptcha: true, ReCaptchaKey: 'site', Name: '', Signup: false });
    expect(before.html).toContain('/recaptcha/api.js');
    await ok(cwd, 'config', 'set', '--recaptcha.key', '', '--branding.name', 'Docs', '--signup');
    const after = await pageConfig(app);
    expect(after.config).toMatchObject({ ReCaptcha: false, Name: 'Docs', Signup: true });
    expect(after.html).toContain('<title>Docs</title>');
    expect(after.html).not.toContain('/recaptcha/api.js');
  });

  it('answers GET /api/settings with the values a CLI command just stored', async () => {
    const { cwd, app } = await running();
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: PASSWORD } });
    expect(login.statusCode).toBe(200);
    const headers = { 'x-auth': login.body };
    expect((await app.inject({ method: 'GET', url: '/api/settings', headers })).json()).toMatchObject({ signup: false });
    await ok(cwd, 'config', 'set', '--signup', '--branding.name', 'Docs');
    const res = await app.inject({ method: 'GET', url: '/api/settings', headers });
    expect(res.json()).toMatchObject({ signup: true, branding: { name: 'Docs' } });
  });
});
