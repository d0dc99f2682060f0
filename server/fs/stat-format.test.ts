import { chmod, lstat, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTree } from '../../tests/support/tree';
import { etagOf, goFileMode, rfc3339Nano } from './stat-format';

let root = '';
beforeAll(async () => {
  root = await makeTree({});
  await mkdir(join(root, 'd'));
  await chmod(join(root, 'd'), 0o755);
  await writeFile(join(root, 'f'), 'x');
  await chmod(join(root, 'f'), 0o644);
  await mkdir(join(root, 'sticky'));
  await chmod(join(root, 'sticky'), 0o1777);
  await writeFile(join(root, 'suid'), 'x');
  await chmod(join(root, 'suid'), 0o4755);
  await symlink('f', join(root, 'link'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('goFileMode', () => {
  it.each([
    ['d', 2147484141],
    ['f', 420],
    ['sticky', 2 ** 31 + 2 ** 20 + 0o777],
    ['suid', 2 ** 23 + 0o755],
    ['link', 2 ** 27 + 0o777],
  ])('gives %s the Go FileMode %i', async (name, mode) => {
    expect(goFileMode(await lstat(join(root, name), { bigint: true }))).toBe(mode);
  });

  it('marks /dev/null as a character device', async () => {
    expect(goFileMode(await lstat('/dev/null', { bigint: true })) & (2 ** 26 + 2 ** 21)).toBe(2 ** 26 + 2 ** 21);
  });
});

describe('rfc3339Nano', () => {
  it('keeps the nanoseconds and drops trailing zeros', () => {
    const ns = BigInt(Date.UTC(2024, 4, 1, 12, 0, 0)) * 1_000_000n + 123_456_789n;
    const text = rfc3339Nano(ns);
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.123456789(Z|[+-]\d\d:\d\d)$/);
    expect(new Date(text).getTime()).toBe(Date.UTC(2024, 4, 1, 12, 0, 0, 123));
    expect(rfc3339Nano(ns - 123_456_789n + 500_000_000n)).toMatch(/:00\.5(Z|[+-]\d\d:\d\d)$/);
    expect(rfc3339Nano(ns - 123_456_789n)).toMatch(/:00(Z|[+-]\d\d:\d\d)$/);
  });

  it("uses the server's local offset", () => {
    const d = new Date(2024, 0, 15, 8, 30, 5);
    const text = rfc3339Nano(BigInt(d.getTime()) * 1_000_000n);
    expect(text.startsWith('2024-01-15T08:30:05')).toBe(true);
    expect(new Date(text).getTime()).toBe(d.getTime());
  });
});

describe('etagOf', () => {
  it('is the quoted hex of mtime ns followed by the hex size', async () => {
    const s = await lstat(join(root, 'f'), { bigint: true });
    expect(etagOf(s)).toBe(`"${s.mtimeNs.toString(16)}1"`);
  });
});
