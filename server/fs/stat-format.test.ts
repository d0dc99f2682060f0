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

  it('writes what Date and padStart write for the whole second, before and after 1970, in any order', () => {
    const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
    const reference = (ns: bigint): string => {
      const seconds = ns >= 0n ? ns / 1_000_000_000n : -((-ns + 999_999_999n) / 1_000_000_000n);
      const nanos = Number(ns - seconds * 1_000_000_000n);
      const date = new Date(Number(seconds) * 1000);
      const minutes = -date.getTimezoneOffset();
      const offset = minutes === 0 ? 'Z' : `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
      const day = `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
      const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
      return `${day}T${time}${nanos === 0 ? '' : `.${pad(nanos, 9).replace(/0+$/, '')}`}${offset}`;
    };
    const seconds = [0n, 1n, -1n, 1_700_000_000n, 1_700_000_001n, -86_400n * 365n * 30n, 253_402_300_799n];
    const nanos = [0n, 1n, 10n, 500_000_000n, 999_999_999n, 123_456_789n, 100n];
    // The same second twice in a row, then another: what is remembered of the last second must not leak.
    for (const s of seconds) {
      for (const n of nanos) {
        for (const ns of [s * 1_000_000_000n + n, s * 1_000_000_000n + n, s * 1_000_000_000n - n]) expect([ns, rfc3339Nano(ns)]).toEqual([ns, reference(ns)]);
      }
    }
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
