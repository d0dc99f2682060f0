import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TrashItem } from '../../contract/trash';
import { appsForEachTest } from '../../../tests/support/per-test';
import { call } from '../../../tests/support/resource-calls';
import { TEST_ADMIN, type TestApp } from '../../../tests/support/test-app';

const start = appsForEachTest();
const DAY = 86_400_000;
const HOUR = 3_600_000;
const exists = (p: string) => lstat(p).then(() => true, () => false);
const names = async (t: TestApp, as?: string) => (await call(t, { method: 'GET', url: '/api/trash', as })).json<TrashItem[]>().map((i) => i.name);

afterEach(() => {
  vi.useRealTimers();
});

describe('the purge', () => {
  it('deletes items older than trash.days on the hourly timer (fake clock)', async () => {
    // Only the clock and the interval timer are fake: the file system and timeouts stay real.
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: Date.UTC(2026, 0, 1) });
    const t = await start({ tree: { 'old.txt': 'o', 'new.txt': 'n' }, settings: (s) => { s.trash = { enabled: true, days: 2 }; } });
    expect((await call(t, { method: 'DELETE', url: '/api/resources/old.txt' })).statusCode).toBe(204);
    vi.setSystemTime(Date.UTC(2026, 0, 2));
    expect((await call(t, { method: 'DELETE', url: '/api/resources/new.txt' })).statusCode).toBe(204);
    const trashDir = join(t.root, '.filemgr-trash', '1');
    expect(await readdir(trashDir)).toHaveLength(2);
    // One hour before old.txt's second day ends nothing goes; the next hourly run takes it.
    vi.setSystemTime(Date.UTC(2026, 0, 3) - HOUR);
    await vi.advanceTimersByTimeAsync(HOUR - 1);
    expect(await names(t)).toEqual(['new.txt', 'old.txt']);
    await vi.advanceTimersByTimeAsync(HOUR);
    await vi.waitFor(async () => expect(await names(t)).toEqual(['new.txt']));
    await vi.waitFor(async () => expect(await readdir(trashDir)).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(DAY);
    await vi.waitFor(async () => expect(await names(t)).toEqual([]));
    await vi.waitFor(async () => expect(await readdir(trashDir)).toEqual([]));
  });

  it('removes the trash of a user who no longer exists at the next run', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const t = await start({ tree: { 'a.txt': 'a' } });
    const u = await t.addUser({ username: 'gone', scope: '/', perm: { delete: true } });
    expect((await call(t, { method: 'DELETE', url: '/api/resources/a.txt', as: 'gone' })).statusCode).toBe(204);
    expect(await names(t, 'gone')).toEqual(['a.txt']);
    expect((await call(t, { method: 'DELETE', url: `/api/users/${u.id}`, payload: { current_password: TEST_ADMIN.password } })).statusCode).toBe(200);
    await vi.advanceTimersByTimeAsync(HOUR);
    await vi.waitFor(async () => expect(await exists(join(t.root, '.filemgr-trash', String(u.id)))).toBe(false));
    expect(t.store.data().trash).toEqual([]);
  });
});
