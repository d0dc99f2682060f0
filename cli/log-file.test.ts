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
    expect(backups.every((f) => /^filemgr-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/.test(f))).toBe(true);
    expect(await readFile(join(dir, backups[0]!), 'utf8')).toBe('cccccccc\n');
    expect(await readFile(join(dir, backups[1]!), 'utf8')).toBe('dddddddd\n');
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
