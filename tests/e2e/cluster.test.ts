import { request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster, type ClusterNode } from '../support/cluster';
import { bytes, OCTET } from '../support/tus-client';

// beyond.md §10 "Judged by": three filemgr processes behind nginx round robin (no stickiness) on
// one PostgreSQL and one root. No browser: the HTTP API is what the instances must agree on.
let cluster: Cluster;
let password = '';

beforeAll(async () => {
  cluster = await startCluster({ tree: { 'docs/shared.txt': 'the shared file, 32 bytes long!!', 'dav/doc.txt': 'v1' } });
  password = cluster.password;
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const node = (i: number): ClusterNode => {
  const n = cluster.nodes[i];
  if (!n) throw new Error(`no node ${i}`);
  return n;
};

async function login(base: string, name = 'admin', secret = password): Promise<Response> {
  return fetch(`${base}/api/login`, { method: 'POST', body: JSON.stringify({ username: name, password: secret }) });
}

async function tokenFrom(base: string): Promise<string> {
  const res = await login(base);
  expect(res.status).toBe(200);
  return res.text();
}

const authed = (token: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { 'x-auth': token, ...(init.headers as Record<string, string> | undefined) } });
const usage = async (base: string, token: string): Promise<number> => (await fetch(`${base}/api/usage/`, authed(token))).status;

function tus(base: string, token: string, at: { method: string; path: string; headers?: Record<string, string>; body?: Uint8Array }): Promise<Response> {
  return fetch(`${base}/api/tus${at.path}`, { method: at.method, headers: { 'x-auth': token, ...at.headers }, ...(at.body ? { body: Uint8Array.from(at.body) } : {}) });
}

const patch = (base: string, token: string, at: { path: string; offset: number; body: Uint8Array }) =>
  tus(base, token, { method: 'PATCH', path: at.path, headers: { 'content-type': OCTET, 'upload-offset': String(at.offset) }, body: at.body });

async function createUser(token: string, name: string, secret: string): Promise<void> {
  const data = { username: name, password: secret, scope: '/', locale: 'en', perm: { create: true, modify: true, delete: true, download: true, share: true } };
  const res = await fetch(`${cluster.url}/api/users`, authed(token, { method: 'POST', body: JSON.stringify({ what: 'user', which: [], current_password: password, data }) }));
  expect(res.status).toBe(201);
}

describe('three instances behind nginx on one PostgreSQL', () => {
  it('take a token issued by one node on every node and through nginx', async () => {
    const token = await tokenFrom(node(0).url);
    for (const n of cluster.nodes) expect(await usage(n.url, token)).toBe(200);
    for (let i = 0; i < 6; i++) expect(await usage(cluster.url, token)).toBe(200);
  });

  it('revoke on every node within 1 s the tokens a password change on one node ended', async () => {
    const admin = await tokenFrom(cluster.url);
    await createUser(admin, 'dora', 'dora-Pa55word-1!');
    const before = await (await login(node(1).url, 'dora', 'dora-Pa55word-1!')).text();
    for (const n of cluster.nodes) expect(await usage(n.url, before)).toBe(200);
    const id = (JSON.parse(Buffer.from(before.split('.')[1] ?? '', 'base64url').toString()) as { user: { id: number } }).user.id;
    const change = { what: 'user', which: ['password'], current_password: 'dora-Pa55word-1!', data: { id, password: 'dora-Pa55word-2!' } };
    const res = await fetch(`${node(0).url}/api/users/${id}`, authed(before, { method: 'PUT', body: JSON.stringify(change) }));
    expect(res.status).toBe(200);
    await Promise.all(cluster.nodes.map((n) => expect.poll(() => usage(n.url, before), { timeout: 1000, interval: 20 }).toBe(401)));
    expect((await login(node(2).url, 'dora', 'dora-Pa55word-2!')).status).toBe(200);
  });

  it('lock a name after wrong passwords spread over the three nodes, even for the right one', async () => {
    const admin = await tokenFrom(cluster.url);
    await createUser(admin, 'erin', 'erin-Pa55word-1!');
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await login(node(i % 3).url, 'erin', `wrong-${i}`)).status);
    expect(answers).toEqual([403, 403, 403, 403, 403, 429]);
    for (const n of cluster.nodes) {
      const right = await login(n.url, 'erin', 'erin-Pa55word-1!');
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('complete a tus upload whose PATCHes alternate between the nodes, with the right bytes', async () => {
    const token = await tokenFrom(cluster.url);
    const data = bytes(3 * 1024 * 1024 + 17, 11);
    expect((await tus(node(0).url, token, { method: 'POST', path: '/docs/alternating.bin', headers: { 'upload-length': String(data.length) } })).status).toBe(201);
    const chunk = 512 * 1024;
    for (let offset = 0, i = 0; offset < data.length; offset += chunk, i++) {
      const res = await patch(node((i + 1) % 3).url, token, { path: '/docs/alternating.bin', offset, body: data.subarray(offset, offset + chunk) });
      expect(res.status).toBe(204);
      expect(Number(res.headers.get('upload-offset'))).toBe(Math.min(offset + chunk, data.length));
    }
    expect((await readFile(join(cluster.root, 'docs/alternating.bin'))).equals(data)).toBe(true);
  });

  it('never lets two concurrent PATCHes of one upload both succeed', async () => {
    const token = await tokenFrom(cluster.url);
    const data = bytes(4 * 1024 * 1024, 5);
    await tus(cluster.url, token, { method: 'POST', path: '/docs/raced.bin', headers: { 'upload-length': String(data.length * 2) } });
    const answers = await Promise.all(cluster.nodes.map((n) => patch(n.url, token, { path: '/docs/raced.bin', offset: 0, body: data })));
    expect(answers.map((r) => r.status).sort()).toEqual([204, 409, 409]);
    const head = await tus(cluster.url, token, { method: 'HEAD', path: '/docs/raced.bin' });
    expect(head.headers.get('upload-offset')).toBe(String(data.length));
  });

  it('serves exactly 5 files of a link limited to 5 downloads to 20 concurrent requests through nginx', async () => {
    const token = await tokenFrom(cluster.url);
    const share = await fetch(`${cluster.url}/api/share/docs/shared.txt`, authed(token, { method: 'POST', body: JSON.stringify({ maxDownloads: 5 }) }));
    expect(share.status).toBe(200);
    const { hash } = (await share.json()) as { hash: string };
    const answers = await Promise.all(Array.from({ length: 20 }, async () => {
      const res = await fetch(`${cluster.url}/api/public/dl/${hash}`);
      return { status: res.status, body: await res.text() };
    }));
    const served = answers.filter((a) => a.status === 200);
    expect(served).toHaveLength(5);
    for (const a of served) expect(a.body).toBe('the shared file, 32 bytes long!!');
    expect(answers.filter((a) => a.status === 410)).toHaveLength(15);
  });

  it('blocks a WebDAV PUT through one node while another node holds the LOCK', async () => {
    const basic = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
    const lockinfo = '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    const lock = await fetch(`${node(0).url}/dav/dav/doc.txt`, { method: 'LOCK', headers: { authorization: basic, 'content-type': 'application/xml' }, body: lockinfo });
    expect(lock.status).toBe(200);
    const token = String(lock.headers.get('lock-token')).slice(1, -1);
    const blocked = await fetch(`${node(1).url}/dav/dav/doc.txt`, { method: 'PUT', headers: { authorization: basic }, body: 'v2 without the lock' });
    expect(blocked.status).toBe(423);
    expect(await readFile(join(cluster.root, 'dav/doc.txt'), 'utf8')).toBe('v1');
    const allowed = await fetch(`${node(2).url}/dav/dav/doc.txt`, { method: 'PUT', headers: { authorization: basic, if: `(<${token}>)` }, body: 'v2' });
    expect(allowed.status).toBe(204);
    expect(await readFile(join(cluster.root, 'dav/doc.txt'), 'utf8')).toBe('v2');
  });

  it('loses no acknowledged byte when a node is killed during uploads, which then resume through another node', async () => {
    const token = await tokenFrom(cluster.url);
    const victim = node(1);
    const data = [bytes(6 * 1024 * 1024, 21), bytes(2 * 1024 * 1024 + 5, 22)];
    const paths = ['/docs/killed-mid-patch.bin', '/docs/killed-between.bin'];
    for (const [i, path] of paths.entries()) expect((await tus(victim.url, token, { method: 'POST', path, headers: { 'upload-length': String(data[i]?.length) } })).status).toBe(201);
    // Acknowledged bytes of both uploads, through the node about to die.
    const acked = [1024 * 1024, 1024 * 1024];
    for (const [i, path] of paths.entries()) expect((await patch(victim.url, token, { path, offset: 0, body: data[i]!.subarray(0, acked[i]) })).status).toBe(204);
    // A PATCH still streaming into the first upload when the node dies.
    const streaming = slowPatch(victim.url, token, { path: paths[0]!, offset: acked[0]!, body: data[0]!.subarray(acked[0]) });
    await streaming.sent(1024 * 1024);
    await victim.kill('SIGKILL');
    await streaming.ended;
    const survivors = cluster.nodes.filter((n) => n.alive());
    for (const [i, path] of paths.entries()) {
      const whole = data[i]!;
      const head = await tus(survivors[0]!.url, token, { method: 'HEAD', path });
      expect(head.status).toBe(200);
      let offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBeGreaterThanOrEqual(acked[i]!);
      // The rest, alternating between the nodes that are left.
      for (let k = 0; offset < whole.length; k++) {
        const res = await patch(survivors[k % survivors.length]!.url, token, { path, offset, body: whole.subarray(offset, offset + 1024 * 1024) });
        expect(res.status).toBe(204);
        offset = Number(res.headers.get('upload-offset'));
      }
      expect((await readFile(join(cluster.root, path))).equals(whole)).toBe(true);
    }
  });

  it('never writes the database password or the admin password to any node\'s output', () => {
    const secret = decodeURIComponent(new URL(cluster.postgres.url).password);
    expect(secret.length).toBeGreaterThan(8);
    for (const n of cluster.nodes) {
      const output = n.stdout() + n.stderr();
      expect(output).toMatch(/listening on/);
      expect(output).not.toContain(secret);
      expect(output).not.toContain(password);
    }
  });
});

/** A PATCH whose body is sent 64 KiB at a time with pauses, so it is still running when its node dies. */
function slowPatch(base: string, token: string, at: { path: string; offset: number; body: Uint8Array }) {
  let written = 0;
  const waiting: Array<{ bytes: number; resolve: () => void }> = [];
  const req = request(`${base}/api/tus${at.path}`, {
    method: 'PATCH',
    headers: { 'x-auth': token, 'content-type': OCTET, 'upload-offset': String(at.offset), 'content-length': String(at.body.length) },
  });
  const ended = new Promise<void>((resolve) => {
    req.on('error', () => resolve());
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
  });
  const pump = async (): Promise<void> => {
    while (written < at.body.length && !req.destroyed) {
      const piece = at.body.subarray(written, written + 64 * 1024);
      if (!req.write(piece)) await new Promise((resolve) => req.once('drain', resolve));
      written += piece.length;
      for (const w of waiting.filter((x) => written >= x.bytes)) w.resolve();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  void pump().catch(() => undefined);
  return {
    ended,
    sent: (n: number) => new Promise<void>((resolve) => (written >= n ? resolve() : waiting.push({ bytes: n, resolve }))),
  };
}
