import { mkdtemp, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLogFile } from './log-file';

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'filemgr-log-'));
}

describe('the log file', () => {
  it('appends, creating the directory and a 0640 file', async () => {
    const dir = await tempDir();
    const path = join(dir, 'logs', 'filemgr.log');
    await writeFile(join(dir, 'seed'), '');
    const log = openLogFile(path);
    log.write('one\n');
    log.close();
    const again = openLogFile(path);
    again.write('two\n');
    again.close();
    expect(await readFile(path, 'utf8')).toBe('one\ntwo\n');
    expect((await stat(path)).mode & 0o777).toBe(0o640);
  });

  it('rotates past the size limit and keeps only the newest backups', async () => {
    const dir = await tempDir();
    const path = join(dir, 'filemgr.log');
    const log = openLogFile(path, { maxBytes: 10, maxBackups: 2, maxAgeDays: 14 });
    for (const line of ['aaaaaaaa\n', 'bbbbbbbb\n', 'cccccccc\n', 'dddddddd\n', 'eeeeeeee\n']) log.write(line);
    log.close();
    expect(await readFile(path, 'utf8')).toBe('eeeeeeee\n');
    const backups = (await readdir(dir)).filter((f) => f !== 'filemgr.log').sort();
    expect(backups).toHaveLength(2);
    expect(backups.every((f) => /^filemgr-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}(-\d+)?\.log$/.test(f))).toBe(true);
    // Rotations within one millisecond add a counter to the name, so compare contents, not names.
    const contents = await Promise.all(backups.map((f) => readFile(join(dir, f), 'utf8')));
    expect(contents.sort()).toEqual(['cccccccc\n', 'dddddddd\n']);
  });

  it('keeps every backup of rotations within the same millisecond, numbered in order', async () => {
    const dir = await tempDir();
    const path = join(dir, 'filemgr.log');
    const sameMs = (): number => Date.UTC(2024, 0, 2, 3, 4, 5, 678);
    const log = openLogFile(path, { maxBytes: 10, maxBackups: 10, maxAgeDays: 14 }, sameMs);
    for (const line of ['aaaaaaaa\n', 'bbbbbbbb\n', 'cccccccc\n']) log.write(line);
    log.close();
    expect(await readFile(path, 'utf8')).toBe('cccccccc\n');
    expect(await readFile(join(dir, 'filemgr-2024-01-02T03-04-05.678.log'), 'utf8')).toBe('aaaaaaaa\n');
    expect(await readFile(join(dir, 'filemgr-2024-01-02T03-04-05.678-1.log'), 'utf8')).toBe('bbbbbbbb\n');
  });

  it('prunes the oldest of same-millisecond backups, never reusing a pruned name', async () => {
    const dir = await tempDir();
    const path = join(dir, 'filemgr.log');
    const sameMs = (): number => Date.UTC(2024, 0, 2, 3, 4, 5, 678);
    const log = openLogFile(path, { maxBytes: 10, maxBackups: 2, maxAgeDays: 100_000 }, sameMs);
    for (const line of ['aaaaaaaa\n', 'bbbbbbbb\n', 'cccccccc\n', 'dddddddd\n', 'eeeeeeee\n']) log.write(line);
    log.close();
    expect((await readdir(dir)).sort()).toEqual([
      'filemgr-2024-01-02T03-04-05.678-2.log',
      'filemgr-2024-01-02T03-04-05.678-3.log',
      'filemgr.log',
    ]);
    expect(await readFile(join(dir, 'filemgr-2024-01-02T03-04-05.678-3.log'), 'utf8')).toBe('dddddddd\n');
  });

  it('deletes backups older than the age limit when it rotates', async () => {
    const dir = await tempDir();
    const path = join(dir, 'filemgr.log');
    const old = join(dir, 'filemgr-2001-01-01T00-00-00.000.log');
    await writeFile(old, 'ancient\n');
    const longAgo = new Date('2001-01-01T00:00:00Z');
    await utimes(old, longAgo, longAgo);
    const log = openLogFile(path, { maxBytes: 5, maxBackups: 10, maxAgeDays: 14 });
    log.write('123456\n');
    log.write('7\n');
    log.close();
    expect(await readdir(dir)).not.toContain('filemgr-2001-01-01T00-00-00.000.log');
  });

  it('fails at once when the file cannot be created', async () => {
    const dir = await tempDir();
    // A path below a regular file fails for every user, root included.
    await writeFile(join(dir, 'file'), '');
    expect(() => openLogFile(join(dir, 'file', 'x.log'))).toThrow(/ENOTDIR|EEXIST/);
  });
});
