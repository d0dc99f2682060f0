import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDatabase } from './initial';
import { memoryStore, openFileStore } from './store';

async function tempDb(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'filemgr-state-')), 'sub', 'filemgr.json');
}

describe('state store', () => {
  it('creates the file with mode 0600 and a fresh 64-byte key', async () => {
    const path = await tempDb();
    const { store, created } = await openFileStore(path, () => emptyDatabase());
    expect(created).toBe(true);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(store.data().settings.key, 'base64')).toHaveLength(64);
  });

  it('keeps the state unchanged when an update throws', async () => {
    const path = await tempDb();
    const { store } = await openFileStore(path, () => emptyDatabase());
    const before = await readFile(path, 'utf8');
    await expect(store.update((db) => {
      db.settings.signup = true;
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(store.data().settings.signup).toBe(false);
    expect(await readFile(path, 'utf8')).toBe(before);
  });

  it('refuses a corrupt file with a clear message and leaves it untouched', async () => {
    const path = await tempDb();
    await openFileStore(path, () => emptyDatabase());
    await writeFile(path, '{ not json');
    await expect(openFileStore(path, () => emptyDatabase())).rejects.toThrow(/is corrupt .* left it untouched/);
    expect(await readFile(path, 'utf8')).toBe('{ not json');
  });

  it('refuses a 0-byte file as it does a corrupt one, even when asked to create the database', async () => {
    const path = await tempDb();
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, '');
    let made = false;
    await expect(openFileStore(path, () => ((made = true), emptyDatabase()))).rejects.toThrow(/database \S+ is empty; filemgr left it untouched/);
    expect(made).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('');
  });

  it('refuses a file written by a newer schema', async () => {
    const path = await tempDb();
    await openFileStore(path, () => emptyDatabase());
    const raw = JSON.parse(await readFile(path, 'utf8')) as { version: number };
    raw.version = 99;
    await writeFile(path, JSON.stringify(raw));
    await expect(openFileStore(path)).rejects.toThrow(/newer filemgr \(schema 99/);
  });

  it('loses no update when two processes write the same file', async () => {
    const path = await tempDb();
    const { store: a } = await openFileStore(path, () => emptyDatabase());
    const { store: b } = await openFileStore(path);
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).update((db) => {
      db.settings.rules.push({ regex: false, allow: false, path: `/r${i}`, regexp: null });
    })));
    const { store: c } = await openFileStore(path);
    expect(c.data().settings.rules).toHaveLength(20);
  });

  it('sees a change made by another process after refresh', async () => {
    const path = await tempDb();
    const { store: server } = await openFileStore(path, () => emptyDatabase());
    const { store: cli } = await openFileStore(path);
    await cli.update((db) => { db.settings.signup = true; });
    await server.refresh();
    expect(server.data().settings.signup).toBe(true);
  });

  it('keeps its own update when a re-read of another process\'s change runs alongside it', async () => {
    const path = await tempDb();
    const { store: server } = await openFileStore(path, () => emptyDatabase());
    const { store: cli } = await openFileStore(path);
    await cli.update((db) => { db.settings.signup = true; });
    await Promise.all([server.refresh(), server.update((db) => { db.settings.branding.name = 'Docs'; }), server.refresh()]);
    await server.refresh();
    expect(server.data().settings).toMatchObject({ signup: true, branding: { name: 'Docs' } });
    const { store: fresh } = await openFileStore(path);
    expect(fresh.data().settings).toMatchObject({ signup: true, branding: { name: 'Docs' } });
  });

  it('serialises updates of a memory store', async () => {
    const store = memoryStore(emptyDatabase());
    await Promise.all([1, 2, 3].map(() => store.update((db) => { db.nextUserId += 1; })));
    expect(store.data().nextUserId).toBe(4);
  });
});
