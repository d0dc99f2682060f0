import { appendFile, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dirsRemovedAfterEachTest } from '../../tests/support/per-test';
import { completeEntry, type ActivityEntry, type ActivityLog } from './entry';
import { createFileActivityLog, type FileLogOptions } from './file-log';
import { createMemoryActivityLog } from './memory-log';
import { openActivityLog } from './open-log';

const dirs = dirsRemovedAfterEachTest();
const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2030-06-01T00:00:00.000Z');

async function logPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-activity-'));
  dirs.push(dir);
  return join(dir, 'filemgr.json.activity.jsonl');
}

function entry(i: number, atMs = T0 + i * 1000): ActivityEntry {
  return completeEntry({ action: 'save', user: i % 2 === 0 ? 'ann' : 'bob', path: `/f${i}`, time: new Date(atMs).toISOString() }, 0);
}

async function all(log: ActivityLog, limit = 7): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const page = await log.query({}, limit, cursor);
    out.push(...page.entries.map((e) => e.path));
    if (page.next === null) return out;
    cursor = page.next;
  }
  throw new Error('no end');
}

function fileLog(path: string, extra: Partial<FileLogOptions> = {}): ActivityLog {
  return createFileActivityLog({ path, days: () => 90, now: () => T0, ...extra });
}

describe('the JSON-lines activity file', () => {
  it('writes buffered entries at close, one JSON line each, mode 0600', async () => {
    const path = await logPath();
    const log = fileLog(path, { flushMs: 60_000 });
    log.append(entry(1));
    log.append(entry(2));
    await expect(stat(path)).rejects.toThrow();
    await log.close();
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as ActivityEntry).path)).toEqual(['/f1', '/f2']);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('writes on its own within the flush delay', async () => {
    const path = await logPath();
    const log = fileLog(path, { flushMs: 20 });
    log.append(entry(1));
    await new Promise((r) => setTimeout(r, 300));
    expect(await readFile(path, 'utf8')).toContain('"/f1"');
    await log.close();
  });

  it('answers newest first, a page at a time, including what is not written yet', async () => {
    const log = fileLog(await logPath(), { flushMs: 60_000 });
    for (let i = 0; i < 30; i++) log.append(entry(i));
    expect(await all(log)).toEqual(Array.from({ length: 30 }, (_, i) => `/f${29 - i}`));
    await log.close();
  });

  it('rotates at the size limit, keeps the previous file and reads across both', async () => {
    const path = await logPath();
    const log = fileLog(path, { maxBytes: 1000 });
    for (let i = 0; i < 12; i++) {
      log.append(entry(i));
      await log.query({}, 1);
    }
    expect((await stat(`${path}.1`)).size).toBeGreaterThanOrEqual(1000);
    expect((await stat(path)).size).toBeGreaterThan(0);
    expect((await stat(path)).size).toBeLessThan(1000);
    expect(await all(log, 5)).toEqual(Array.from({ length: 12 }, (_, i) => `/f${11 - i}`));
    await log.close();
  });

  it('drops the oldest file at the second rotation', async () => {
    const path = await logPath();
    const log = fileLog(path, { maxBytes: 1000 });
    for (let i = 0; i < 40; i++) {
      log.append(entry(i));
      await log.query({}, 1);
    }
    const kept = await all(log);
    expect(kept[0]).toBe('/f39');
    expect(kept.length).toBeLessThan(40);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => `/f${39 - i}`));
    await log.close();
  });

  it('keeps a cursor valid across a rotation, and ends one whose file is gone', async () => {
    const path = await logPath();
    const log = fileLog(path, { maxBytes: 1500 });
    for (let i = 0; i < 5; i++) log.append(entry(i));
    const first = await log.query({}, 2);
    expect(first.entries.map((e) => e.path)).toEqual(['/f4', '/f3']);
    for (let i = 5; i < 12; i++) {
      log.append(entry(i));
      await log.query({}, 1);
    }
    expect((await log.query({}, 10, first.next ?? '')).entries.map((e) => e.path)).toEqual(['/f2', '/f1', '/f0']);
    expect(await log.query({}, 10, '1:0')).toEqual({ entries: [], next: null });
    await expect(log.query({}, 10, 'x')).rejects.toThrow(/cursor/);
    await log.close();
  });

  it('filters by user, action, path and time', async () => {
    const log = fileLog(await logPath());
    for (let i = 0; i < 10; i++) log.append(entry(i));
    const paths = async (f: Parameters<ActivityLog['query']>[0]) => (await log.query(f, 100)).entries.map((e) => e.path);
    expect(await paths({ user: 'bob' })).toEqual(['/f9', '/f7', '/f5', '/f3', '/f1']);
    expect(await paths({ path: 'F1' })).toEqual(['/f1']);
    expect(await paths({ since: T0 + 7000 })).toEqual(['/f9', '/f8', '/f7']);
    expect(await paths({ until: T0 + 2000 })).toEqual(['/f1', '/f0']);
    expect(await paths({ action: 'delete' })).toEqual([]);
    await log.close();
  });

  it('skips a torn or foreign line', async () => {
    const path = await logPath();
    await writeFile(path, `${JSON.stringify(entry(1))}\n{"torn":\nnot json\n${JSON.stringify(entry(2))}\n`);
    const log = fileLog(path);
    expect(await all(log)).toEqual(['/f2', '/f1']);
    await log.close();
  });
});

describe('retention (activityDays)', () => {
  it('hides and drops entries older than the retention', async () => {
    const path = await logPath();
    let now = T0;
    let days = 90;
    const log = fileLog(path, { now: () => now, days: () => days });
    log.append(entry(0, T0 - 10 * DAY));
    log.append(entry(1, T0 - 2 * DAY));
    log.append(entry(2, T0));
    expect(await all(log)).toEqual(['/f2', '/f1', '/f0']);
    days = 5;
    expect(await all(log)).toEqual(['/f2', '/f1']);
    await log.prune();
    expect(await readFile(path, 'utf8')).not.toContain('"/f0"');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    now = T0 + 30 * DAY;
    await log.prune();
    await expect(stat(path)).rejects.toThrow();
    expect(await all(log)).toEqual([]);
    log.append(entry(3, now));
    expect(await all(log)).toEqual(['/f3']);
    await log.close();
  });

  it('prunes the previous file at rotation', async () => {
    const path = await logPath();
    let now = T0;
    const log = fileLog(path, { maxBytes: 600, now: () => now, days: () => 1 });
    log.append(entry(0, T0));
    log.append(entry(1, T0));
    await log.query({}, 1);
    now = T0 + 3 * DAY;
    for (let i = 2; i < 6; i++) log.append(entry(i, now));
    await log.query({}, 1);
    const previous = await readFile(`${path}.1`, 'utf8');
    expect(previous).not.toContain('"/f0"');
    expect(previous).toContain('"/f2"');
    await log.close();
  });

  it('prunes the memory log alike', async () => {
    let days = 90;
    const log = createMemoryActivityLog({ days: () => days, now: () => T0 });
    log.append(entry(0, T0 - 10 * DAY));
    log.append(entry(1, T0));
    const page = await log.query({}, 1);
    days = 5;
    expect(await all(log)).toEqual(['/f1']);
    expect((await log.query({}, 5, page.next ?? '')).entries).toEqual([]);
  });
});

describe('openActivityLog', () => {
  it('puts the file beside the database, and keeps a memory store in memory', async () => {
    const path = await logPath();
    const db = path.replace(/\.activity\.jsonl$/, '');
    const log = openActivityLog({ location: db, days: () => undefined });
    log.append(entry(1));
    await log.close();
    expect(await readFile(path, 'utf8')).toContain('"/f1"');
    await appendFile(path, '');
    const memory = openActivityLog({ location: ':memory:', days: () => 3 });
    memory.append(entry(1, Date.now()));
    expect((await memory.query({}, 5)).entries).toHaveLength(1);
  });
});
