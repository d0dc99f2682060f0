import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../activity/entry';
import { completeEntry } from '../../activity/entry';
import { call } from '../../../tests/support/resource-calls';
import { appsForEachTest } from '../../../tests/support/per-test';
import { TEST_ADMIN, defaultPasswordOf, type TestApp } from '../../../tests/support/test-app';

const start = appsForEachTest();

const OCTET = 'application/offset+octet-stream';
const TUS = { 'tus-resumable': '1.0.0' };
const JSON_TYPE = { 'content-type': 'application/json' };

async function entries(t: TestApp, query = ''): Promise<ActivityEntry[]> {
  const res = await call(t, { method: 'GET', url: `/api/activity?limit=1000${query}` });
  expect(res.statusCode).toBe(200);
  return res.json<{ items: ActivityEntry[] }>().items;
}

async function newest(t: TestApp): Promise<ActivityEntry | undefined> {
  return (await entries(t))[0];
}

async function share(t: TestApp, path: string): Promise<string> {
  const res = await call(t, { method: 'POST', url: `/api/share${path}`, payload: '{}', headers: JSON_TYPE });
  return res.json<{ hash: string }>().hash;
}

const userBody = (which: string[], data: Record<string, unknown>) => JSON.stringify({ what: 'user', which, current_password: TEST_ADMIN.password, data });

type Step = (t: TestApp) => Promise<LightMyRequestResponse | undefined>;

const STEPS: Array<[string, Step, Partial<ActivityEntry>]> = [
  ['a sign-in', (t) => t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: TEST_ADMIN.password } }),
    { action: 'login', user: 'admin', result: 'ok', detail: 'password', status: 200 }],
  ['a failed sign-in', (t) => t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: 'wrong' } }),
    { action: 'login', user: 'admin', result: 'failed', detail: 'password', status: 403 }],
  ['a new folder', (t) => call(t, { method: 'POST', url: '/api/resources/docs/new/' }), { action: 'create', path: '/docs/new', user: 'admin', result: 'ok' }],
  ['an upload', (t) => call(t, { method: 'POST', url: '/api/resources/up.txt', payload: 'hello' }), { action: 'upload', path: '/up.txt', bytes: 5 }],
  ['a tus upload', async (t) => {
    await call(t, { method: 'POST', url: '/api/tus/t.bin', headers: { ...TUS, 'upload-length': '3' } });
    return call(t, { method: 'PATCH', url: '/api/tus/t.bin', headers: { ...TUS, 'content-type': OCTET, 'upload-offset': '0' }, payload: 'abc' });
  }, { action: 'upload', path: '/t.bin', bytes: 3, result: 'ok' }],
  ['a save', (t) => call(t, { method: 'PUT', url: '/api/resources/docs/a.txt', payload: 'four' }), { action: 'save', path: '/docs/a.txt', bytes: 4 }],
  ['a rename', (t) => call(t, { method: 'PATCH', url: '/api/resources/docs/a.txt?action=rename&destination=%2Fdocs%2Fb%2520c.txt' }),
    { action: 'rename', path: '/docs/a.txt', destination: '/docs/b c.txt' }],
  ['a move', (t) => call(t, { method: 'PATCH', url: '/api/resources/docs/a.txt?action=rename&destination=%2Fa.txt' }),
    { action: 'move', path: '/docs/a.txt', destination: '/a.txt' }],
  ['a copy', (t) => call(t, { method: 'PATCH', url: '/api/resources/docs/a.txt?action=copy&destination=%2Fdocs%2Fcopy.txt' }),
    { action: 'copy', path: '/docs/a.txt', destination: '/docs/copy.txt' }],
  ['a delete', (t) => call(t, { method: 'DELETE', url: '/api/resources/docs/a.txt' }), { action: 'delete', path: '/docs/a.txt', result: 'ok', status: 204 }],
  ['a new share', (t) => call(t, { method: 'POST', url: '/api/share/docs/a.txt', payload: '{}', headers: JSON_TYPE }), { action: 'share.create', path: '/docs/a.txt' }],
  ['a share deleted', async (t) => call(t, { method: 'DELETE', url: `/api/share/${await share(t, '/docs/a.txt')}` }), { action: 'share.delete', path: '/docs/a.txt' }],
  ['a public download', async (t) => t.app.inject({ method: 'GET', url: `/api/public/dl/${await share(t, '/docs/a.txt')}` }),
    { action: 'share.use', user: '', path: '/docs/a.txt', bytes: 3, result: 'ok' }],
  ['a new user', (t) => call(t, { method: 'POST', url: '/api/users', payload: userBody([], { username: 'carol', password: 'A-new-Passw0rd-here', scope: '/carol' }), headers: JSON_TYPE }),
    { action: 'user.create', detail: 'carol', status: 201 }],
  ['a user changed', async (t) => {
    const bob = await t.addUser({ username: 'bob' });
    return call(t, { method: 'PUT', url: `/api/users/${bob.id}`, payload: userBody(['locale'], { id: bob.id, locale: 'de' }), headers: JSON_TYPE });
  }, { action: 'user.update', detail: 'bob: locale' }],
  ['a user deleted', async (t) => {
    const bob = await t.addUser({ username: 'bob' });
    return call(t, { method: 'DELETE', url: `/api/users/${bob.id}`, payload: JSON.stringify({ current_password: TEST_ADMIN.password }), headers: JSON_TYPE });
  }, { action: 'user.delete', detail: 'bob' }],
  ['the settings changed', async (t) => {
    const current = (await call(t, { method: 'GET', url: '/api/settings' })).json<Record<string, unknown>>();
    return call(t, { method: 'PUT', url: '/api/settings', payload: JSON.stringify({ ...current, signup: true }), headers: JSON_TYPE });
  }, { action: 'settings.update', result: 'ok' }],
];

describe('what is recorded', () => {
  it.each(STEPS)('records %s', async (_name, step, expected) => {
    const t = await start({ tree: { 'docs/a.txt': 'abc' } });
    const res = await step(t);
    expect(res?.statusCode).toBeLessThan(expected.result === 'failed' ? 500 : 400);
    const entry = await newest(t);
    expect(entry).toMatchObject({ result: 'ok', ...expected });
    expect(entry?.address).toBe('127.0.0.1');
    expect(Date.now() - Date.parse(entry?.time ?? '')).toBeLessThan(60_000);
  });

  it('records a refused change as failed, with the status, and reads nothing', async () => {
    const t = await start({ tree: { 'a.txt': 'x' } });
    await t.addUser({ username: 'bob', perm: { delete: false } });
    expect((await call(t, { method: 'DELETE', url: '/api/resources/a.txt', as: 'bob' })).statusCode).toBe(403);
    await call(t, { method: 'GET', url: '/api/resources/a.txt' });
    const list = await entries(t);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ action: 'delete', user: 'bob', path: '/a.txt', result: 'failed', status: 403 });
  });

  it('stores paths from the server root: a user scope is joined in front', async () => {
    const t = await start({ tree: { bob: null } });
    await t.addUser({ username: 'bob', scope: '/bob' });
    await call(t, { method: 'POST', url: '/api/resources/notes/', as: 'bob' });
    expect(await newest(t)).toMatchObject({ action: 'create', user: 'bob', path: '/bob/notes' });
  });

  it('takes the client address from X-Forwarded-For only behind a trusted proxy', async () => {
    const t = await start({ config: { trustedProxies: ['127.0.0.1'] } });
    await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'x', password: 'y' }, headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await newest(t)).toMatchObject({ action: 'login', user: 'x', address: '203.0.113.9', result: 'failed' });
  });

  it('never records a password', async () => {
    const t = await start();
    const bob = await t.addUser({ username: 'bob' });
    await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'bob', password: defaultPasswordOf('bob') } });
    await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'bob', password: 'Secret-guess-1' } });
    await call(t, { method: 'PUT', url: `/api/users/${bob.id}`, payload: userBody(['password'], { id: bob.id, password: 'Brand-new-Secret-9' }), headers: JSON_TYPE });
    const text = JSON.stringify(await entries(t));
    expect(text).toContain('bob: password');
    for (const secret of [defaultPasswordOf('bob'), 'Secret-guess-1', 'Brand-new-Secret-9', TEST_ADMIN.password]) expect(text).not.toContain(secret);
  });

  it('records a user-changing capability once through recordActivity, not twice', async () => {
    const t = await start();
    await call(t, { method: 'POST', url: '/api/tus/e.bin', headers: { ...TUS, 'upload-length': '0' } });
    await call(t, { method: 'POST', url: '/api/tus/x.bin', headers: { ...TUS, 'upload-length': '2' } });
    await call(t, { method: 'PATCH', url: '/api/tus/x.bin', headers: { ...TUS, 'content-type': OCTET, 'upload-offset': '0' }, payload: 'a' });
    const list = await entries(t);
    expect(list.map((e) => [e.action, e.path, e.bytes])).toEqual([['upload', '/e.bin', 0]]);
  });
});

function seed(t: TestApp, parts: Array<Partial<ActivityEntry> & { action: string }>): void {
  for (const p of parts) t.app.activityContext.log.append(completeEntry(p, Date.now()));
}

describe('GET /api/activity', () => {
  it('filters by user, action, family, path and time', async () => {
    const t = await start();
    const at = (d: string) => `2099-01-0${d}T00:00:00.000Z`;
    seed(t, [
      { action: 'upload', user: 'ann', path: '/Docs/a.txt', time: at('1') },
      { action: 'delete', user: 'bob', path: '/docs/b.txt', time: at('2') },
      { action: 'share.create', user: 'ann', path: '/pics', time: at('3') },
      { action: 'rename', user: 'bob', path: '/x', destination: '/docs/y', time: at('4') },
    ]);
    const paths = async (q: string) => (await entries(t, q)).map((e) => e.path);
    expect(await paths('&user=ann')).toEqual(['/pics', '/Docs/a.txt']);
    expect(await paths('&action=delete')).toEqual(['/docs/b.txt']);
    expect(await paths('&action=share.')).toEqual(['/pics']);
    expect(await paths('&path=DOCS')).toEqual(['/x', '/docs/b.txt', '/Docs/a.txt']);
    expect(await paths(`&since=${at('2')}&until=${encodeURIComponent(at('4'))}`)).toEqual(['/pics', '/docs/b.txt']);
    expect(await paths('&user=ann&since=2099-01-02')).toEqual(['/pics']);
  });

  it('pages newest first through the cursor until next is null', async () => {
    const t = await start();
    seed(t, Array.from({ length: 25 }, (_, i) => ({ action: 'save', path: `/f${i}` })));
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 10; page++) {
      const res = await call(t, { method: 'GET', url: `/api/activity?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}` });
      const body = res.json<{ items: ActivityEntry[]; next: string | null }>();
      seen.push(...body.items.map((e) => e.path));
      if (body.next === null) break;
      cursor = body.next;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `/f${24 - i}`));
  });

  it('answers 100 entries by default', async () => {
    const t = await start();
    seed(t, Array.from({ length: 120 }, (_, i) => ({ action: 'save', path: `/f${i}` })));
    const body = (await call(t, { method: 'GET', url: '/api/activity' })).json<{ items: unknown[]; next: string | null }>();
    expect(body.items).toHaveLength(100);
    expect(body.next).not.toBeNull();
  });

  it.each([
    ['limit=0', 'limit'], ['limit=1001', 'limit'], ['limit=ten', 'limit'], ['since=yesterday', 'since'], ['until=2026-13-45', 'until'], ['cursor=abc', 'cursor'],
  ])('refuses %s with 400 and the reason', async (query, word) => {
    const t = await start();
    const res = await call(t, { method: 'GET', url: `/api/activity?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(word);
  });

  it('is for admins; anyone may read their own with user=self', async () => {
    const t = await start();
    await t.addUser({ username: 'bob' });
    seed(t, [{ action: 'save', user: 'bob', path: '/b' }, { action: 'save', user: 'admin', path: '/a' }]);
    expect((await call(t, { method: 'GET', url: '/api/activity', as: 'bob' })).statusCode).toBe(403);
    expect((await call(t, { method: 'GET', url: '/api/activity?user=admin', as: 'bob' })).statusCode).toBe(403);
    expect((await call(t, { method: 'GET', url: '/api/activity.csv', as: 'bob' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/activity' })).statusCode).toBe(401);
    const own = (await call(t, { method: 'GET', url: '/api/activity?user=self', as: 'bob' })).json<{ items: ActivityEntry[] }>();
    expect(own.items.map((e) => e.path)).toEqual(['/b']);
    expect((await entries(t, '&user=self')).map((e) => e.path)).toEqual(['/a']);
  });
});

/** A small RFC 4180 parser: quoted fields with doubled quotes, commas and line breaks inside. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\r' && text[i + 1] === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; i++; } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

describe('GET /api/activity.csv', () => {
  it('exports every matching entry as RFC 4180 CSV with a header, safe from formulas', async () => {
    const t = await start();
    seed(t, [
      { action: 'upload', user: 'ann', path: '/a "quoted", with comma.txt', bytes: 12 },
      { action: 'rename', user: 'ann', path: '/line\nbreak', destination: '/-neg', detail: '-1+2' },
      { action: 'login', user: '=HYPERLINK("http://x")', result: 'failed', status: 403 },
      { action: 'save', user: 'bob', path: '/+plus', detail: '@at' },
    ]);
    const res = await call(t, { method: 'GET', url: '/api/activity.csv?action=' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('attachment');
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual(['time', 'user', 'address', 'action', 'path', 'destination', 'bytes', 'result', 'status', 'detail']);
    expect(rows).toHaveLength(5);
    expect(rows.slice(1).map((r) => r.length)).toEqual([10, 10, 10, 10]);
    expect(rows[1]?.slice(1, 5)).toEqual(['bob', '', 'save', '/+plus']);
    expect(rows[1]?.[9]).toBe("'@at");
    expect(rows[2]?.[1]).toBe('\'=HYPERLINK("http://x")');
    expect(rows[3]?.slice(4, 6)).toEqual(['/line\nbreak', '/-neg']);
    expect(rows[3]?.[9]).toBe("'-1+2");
    expect(rows[4]?.[4]).toBe('/a "quoted", with comma.txt');
    expect(rows[4]?.[6]).toBe('12');
  });

  it('applies the same filters as the JSON page', async () => {
    const t = await start();
    seed(t, [{ action: 'save', user: 'ann', path: '/a' }, { action: 'save', user: 'bob', path: '/b' }]);
    const rows = parseCsv((await call(t, { method: 'GET', url: '/api/activity.csv?user=bob' })).body);
    expect(rows.map((r) => r[4])).toEqual(['path', '/b']);
  });
});

describe('the activityDays setting', () => {
  const put = (t: TestApp, body: Record<string, unknown>) => call(t, { method: 'PUT', url: '/api/settings', payload: JSON.stringify(body), headers: JSON_TYPE });

  it('is 90 by default, set by PUT /api/settings and kept when a PUT leaves it out', async () => {
    const t = await start();
    const current = (await call(t, { method: 'GET', url: '/api/settings' })).json<Record<string, unknown>>();
    expect(current.activityDays).toBe(90);
    expect((await put(t, { ...current, activityDays: 7 })).statusCode).toBe(200);
    expect(t.store.data().settings.activityDays).toBe(7);
    const { activityDays: _gone, ...withoutDays } = current;
    expect((await put(t, withoutDays)).statusCode).toBe(200);
    expect(t.store.data().settings.activityDays).toBe(7);
  });

  it.each([0, 3651, 1.5, 'thirty', -5])('refuses %j with 400', async (days) => {
    const t = await start();
    const current = (await call(t, { method: 'GET', url: '/api/settings' })).json<Record<string, unknown>>();
    expect((await put(t, { ...current, activityDays: days })).statusCode).toBe(400);
  });
});
