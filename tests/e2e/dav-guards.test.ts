import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerHandle } from './support/harness';
import { dav, davUser, header, hrefs, lockInfo, type DavAnswer, type DavPermissions } from './support/dav';

// Permissions, scope, rules, locks between users and hostile bodies over /dav/ (beyond.md §1).

type Perm = 'download' | 'create' | 'modify' | 'rename' | 'delete';
type Credentials = { username: string; password: string };

const PROPPATCH = '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:x="urn:x"><D:set><D:prop><x:color>red</x:color></D:prop></D:set></D:propertyupdate>';

/** One request of the matrix: what it does and the permission beyond.md §1 says it needs (null: none). */
const METHODS: { name: string; needs: Perm | null; send: (s: ServerHandle, u: Credentials) => Promise<DavAnswer> }[] = [
  { name: 'PROPFIND of the folder', needs: null, send: (s, auth) => dav(s, 'PROPFIND', '/dav/', { auth, headers: { Depth: '1' } }) },
  { name: 'PROPFIND of a file', needs: 'download', send: (s, auth) => dav(s, 'PROPFIND', '/dav/f.txt', { auth, headers: { Depth: '0' } }) },
  { name: 'GET', needs: 'download', send: (s, auth) => dav(s, 'GET', '/dav/f.txt', { auth }) },
  { name: 'HEAD', needs: 'download', send: (s, auth) => dav(s, 'HEAD', '/dav/f.txt', { auth }) },
  { name: 'PUT of a new name', needs: 'create', send: (s, auth) => dav(s, 'PUT', '/dav/new.txt', { auth, body: 'new' }) },
  { name: 'MKCOL', needs: 'create', send: (s, auth) => dav(s, 'MKCOL', '/dav/newdir', { auth }) },
  { name: 'COPY', needs: 'create', send: (s, auth) => dav(s, 'COPY', '/dav/f.txt', { auth, headers: { Destination: '/dav/copy.txt' } }) },
  { name: 'LOCK of an unmapped name', needs: 'create', send: (s, auth) => dav(s, 'LOCK', '/dav/unmapped.txt', { auth, body: lockInfo('t') }) },
  { name: 'PUT over a file', needs: 'modify', send: (s, auth) => dav(s, 'PUT', '/dav/over.txt', { auth, body: 'changed' }) },
  { name: 'PROPPATCH', needs: 'modify', send: (s, auth) => dav(s, 'PROPPATCH', '/dav/f.txt', { auth, body: PROPPATCH }) },
  { name: 'MOVE', needs: 'rename', send: (s, auth) => dav(s, 'MOVE', '/dav/mv.txt', { auth, headers: { Destination: '/dav/moved.txt' } }) },
  { name: 'DELETE', needs: 'delete', send: (s, auth) => dav(s, 'DELETE', '/dav/del.txt', { auth }) },
];

const PERMS: Perm[] = ['download', 'create', 'modify', 'rename', 'delete'];

const FIXTURE = { 'f.txt': 'f', 'over.txt': 'over', 'mv.txt': 'mv', 'del.txt': 'del' };

function fixtures(prefix: string): Record<string, string> {
  return Object.fromEntries(Object.entries(FIXTURE).map(([name, content]) => [`${prefix}/${name}`, content]));
}

describe('WebDAV guards', () => {
  let server: ServerHandle;
  const users = new Map<string, Credentials>();
  const disk = (rel: string): string => join(server.sandbox.root, rel);

  beforeAll(async () => {
    const tree: Record<string, string> = {
      'outside.txt': 'SECRET OUTSIDE THE SCOPE',
      'inner/in.txt': 'inside',
      'ruled/open.txt': 'open',
      'ruled/secret/plan.txt': 'SECRET PLAN',
      'shared/doc.txt': 'shared',
      'full/.keep': '',
    };
    for (const perm of PERMS) Object.assign(tree, fixtures(`no-${perm}`));
    Object.assign(tree, fixtures('full'));
    server = await startServer({ tree });
    for (const perm of PERMS) {
      const without: DavPermissions = { [perm]: false };
      users.set(perm, await davUser(server, { username: `no-${perm}`, scope: `/no-${perm}`, perm: without }));
    }
    users.set('full', await davUser(server, { username: 'full', scope: '/full' }));
    users.set('inner', await davUser(server, { username: 'inner', scope: '/inner' }));
    users.set('ruled', await davUser(server, { username: 'ruled', scope: '/ruled', rules: [{ allow: false, path: '/secret', regex: false, regexp: null }] }));
    users.set('alice', await davUser(server, { username: 'alice', scope: '/shared' }));
    users.set('bob', await davUser(server, { username: 'bob', scope: '/shared' }));
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    await server.sandbox.remove();
  });

  const who = (name: string): Credentials => {
    const found = users.get(name);
    if (!found) throw new Error(`no user ${name}`);
    return found;
  };

  it('lets a user with every permission do every method', async () => {
    for (const method of METHODS) {
      const answer = await method.send(server, who('full'));
      expect(answer.status, `${method.name}: ${answer.body}`).toBeLessThan(300);
    }
  });

  it.each(PERMS)('refuses exactly the methods that need %s to a user without it', async (perm) => {
    for (const method of METHODS) {
      const answer = await method.send(server, who(perm));
      if (method.needs === perm) expect(answer.status, method.name).toBe(403);
      else expect(answer.status, `${method.name}: ${answer.body}`).toBeLessThan(300);
    }
    // What was refused left the disk as it was.
    const root = `no-${perm}`;
    if (perm === 'create') expect(existsSync(disk(`${root}/new.txt`)) || existsSync(disk(`${root}/newdir`)) || existsSync(disk(`${root}/copy.txt`)) || existsSync(disk(`${root}/unmapped.txt`))).toBe(false);
    if (perm === 'modify') expect(await readFile(disk(`${root}/over.txt`), 'utf8')).toBe('over');
    if (perm === 'rename') expect(existsSync(disk(`${root}/mv.txt`)) && !existsSync(disk(`${root}/moved.txt`))).toBe(true);
    if (perm === 'delete') expect(existsSync(disk(`${root}/del.txt`))).toBe(true);
  });

  it.each([
    '/dav/../outside.txt',
    '/dav/%2e%2e/outside.txt',
    '/dav/%2E%2E/outside.txt',
    '/dav/..%2foutside.txt',
    '/dav/%2e%2e%2foutside.txt',
    '/dav/in.txt/../../outside.txt',
    '/dav/%2e%2e%5coutside.txt',
    '/dav//../outside.txt',
  ])('never reaches a file outside the scope through %s', async (target) => {
    const answer = await dav(server, 'GET', target, { auth: who('inner') });
    expect([400, 403, 404]).toContain(answer.status);
    expect(answer.body).not.toContain('SECRET');
    // A request path is cleaned as the API cleans it (api.md §1.4: `..` cannot climb above the
    // scope's root), so a PUT is refused or lands inside the scope; never beside outside.txt.
    const before = (await readdir(server.sandbox.root)).sort();
    const put = await dav(server, 'PUT', target.replace('outside.txt', 'planted.txt'), { auth: who('inner'), body: 'planted' });
    expect([201, 204, 400, 403, 404, 409]).toContain(put.status);
    expect((await readdir(server.sandbox.root)).sort()).toEqual(before);
    if (put.status < 300) expect((await readdir(disk('inner'))).some((name) => name.endsWith('planted.txt'))).toBe(true);
  });

  it.each([
    { destination: '/dav/../outside-copy.txt', status: 403 },
    { destination: '/dav/%2e%2e/outside-copy.txt', status: 403 },
    { destination: 'http://127.0.0.1:1/dav/x.txt', status: 502 },
    { destination: 'http://elsewhere.example/dav/x.txt', status: 502 },
    // Outside the /dav/ mount of this server: outside the scope (403), or not a WebDAV target (502).
    { destination: '/api/resources/x.txt', status: [403, 502] },
  ])('refuses COPY and MOVE to $destination with $status', async ({ destination, status }) => {
    for (const method of ['COPY', 'MOVE']) {
      const answer = await dav(server, method, '/dav/in.txt', { auth: who('inner'), headers: { Destination: destination } });
      expect([status].flat(), `${method}: ${answer.status}`).toContain(answer.status);
    }
    expect(existsSync(disk('outside-copy.txt'))).toBe(false);
    expect(await readFile(disk('inner/in.txt'), 'utf8')).toBe('inside');
  });

  it('keeps a path denied by rules out of PROPFIND and refuses every method on it', async () => {
    const auth = who('ruled');
    const listing = await dav(server, 'PROPFIND', '/dav/', { auth, headers: { Depth: '1' } });
    expect(listing.status).toBe(207);
    expect(hrefs(listing.body).some((h) => h.includes('secret'))).toBe(false);
    expect(hrefs(listing.body).some((h) => h.endsWith('/open.txt'))).toBe(true);
    const refused = [
      await dav(server, 'PROPFIND', '/dav/secret/', { auth, headers: { Depth: '1' } }),
      await dav(server, 'GET', '/dav/secret/plan.txt', { auth }),
      await dav(server, 'PUT', '/dav/secret/new.txt', { auth, body: 'x' }),
      await dav(server, 'DELETE', '/dav/secret/plan.txt', { auth }),
      await dav(server, 'COPY', '/dav/open.txt', { auth, headers: { Destination: '/dav/secret/open.txt' } }),
      await dav(server, 'MOVE', '/dav/secret/plan.txt', { auth, headers: { Destination: '/dav/plan.txt' } }),
      await dav(server, 'LOCK', '/dav/secret/plan.txt', { auth, body: lockInfo('x') }),
    ];
    for (const answer of refused) {
      expect([403, 404]).toContain(answer.status);
      expect(answer.body).not.toContain('SECRET PLAN');
    }
    expect(existsSync(disk('ruled/secret/new.txt')) || existsSync(disk('ruled/secret/open.txt')) || existsSync(disk('ruled/plan.txt'))).toBe(false);
    expect(await readFile(disk('ruled/secret/plan.txt'), 'utf8')).toBe('SECRET PLAN');
  });

  it('answers 423 to another user\'s PUT on a file one user locked, until it is unlocked', async () => {
    const locked = await dav(server, 'LOCK', '/dav/doc.txt', { auth: who('alice'), body: lockInfo('alice'), headers: { Timeout: 'Second-600' } });
    expect(locked.status).toBe(200);
    const token = header(locked, 'lock-token');
    expect(token).not.toBe('');
    expect((await dav(server, 'PUT', '/dav/doc.txt', { auth: who('bob'), body: 'bob was here' })).status).toBe(423);
    // Bob cannot use Alice's token either: a lock token belongs to the user who took it.
    expect((await dav(server, 'PUT', '/dav/doc.txt', { auth: who('bob'), body: 'bob again', headers: { If: `(${token})` } })).status).toBe(423);
    expect((await dav(server, 'DELETE', '/dav/doc.txt', { auth: who('bob') })).status).toBe(423);
    expect(await readFile(disk('shared/doc.txt'), 'utf8')).toBe('shared');
    expect((await dav(server, 'PUT', '/dav/doc.txt', { auth: who('alice'), body: 'alice', headers: { If: `(${token})` } })).status).toBeLessThan(300);
    expect((await dav(server, 'UNLOCK', '/dav/doc.txt', { auth: who('alice'), headers: { 'Lock-Token': token } })).status).toBe(204);
    expect((await dav(server, 'PUT', '/dav/doc.txt', { auth: who('bob'), body: 'bob' })).status).toBeLessThan(300);
    expect(await readFile(disk('shared/doc.txt'), 'utf8')).toBe('bob');
  });

  it('refuses a billion-laughs body with 4xx and keeps serving', async () => {
    const entities = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const body = `<?xml version="1.0"?><!DOCTYPE D:propfind [<!ENTITY l0 "lol">${entities}]><D:propfind xmlns:D="DAV:"><D:prop><D:displayname>&l9;</D:displayname></D:prop></D:propfind>`;
    const answer = await dav(server, 'PROPFIND', '/dav/', { auth: who('full'), headers: { Depth: '0', 'Content-Type': 'text/xml' }, body });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    const proppatch = await dav(server, 'PROPPATCH', '/dav/f.txt', { auth: who('full'), body: body.replace('D:propfind', 'D:propertyupdate') });
    expect(proppatch.status).toBeGreaterThanOrEqual(400);
    expect(proppatch.status).toBeLessThan(500);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('answers 413 to an XML body over 64 KiB and 400 to malformed XML', async () => {
    const big = `<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop>${'<D:displayname/>'.repeat(5000)}</D:prop></D:propfind>`;
    expect((await dav(server, 'PROPFIND', '/dav/', { auth: who('full'), headers: { Depth: '0' }, body: big })).status).toBe(413);
    expect((await dav(server, 'PROPFIND', '/dav/', { auth: who('full'), headers: { Depth: '0' }, body: '<D:propfind xmlns:D="DAV:"><D:prop>' })).status).toBe(400);
    expect((await dav(server, 'PROPFIND', '/dav/', { auth: who('full'), headers: { Depth: 'infinity' } })).status).toBe(403);
  });
});

describe('the sign-in throttle through Basic auth', () => {
  let server: ServerHandle;

  beforeAll(async () => {
    server = await startServer();
  });

  afterAll(async () => {
    await server.stop();
    await server.sandbox.remove();
  });

  it('answers 401 to wrong passwords, then 429 with Retry-After even to the right one, as /api/login does', async () => {
    const wrong = { username: server.username, password: 'not-the-password' };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await dav(server, 'PROPFIND', '/dav/', { auth: wrong, headers: { Depth: '0' } })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const locked = await dav(server, 'PROPFIND', '/dav/', { headers: { Depth: '0' } });
    expect(locked.status).toBe(429);
    expect(Number(header(locked, 'retry-after'))).toBeGreaterThan(0);
    // One throttle: the login page is locked for the same name and address too.
    const login = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: server.username, password: server.password, recaptcha: '' }) });
    expect(login.status).toBe(429);
  });
});
