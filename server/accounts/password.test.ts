import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import list from './common-passwords.json';
import { hasLine, sortedList } from './common-passwords';
import { hashPassword, isCommonPassword, validatePassword, verifyPassword } from './password';

describe('passwords', () => {
  it('ships 100,000 distinct common passwords', () => {
    const entries = list.passwords.split('\n');
    expect(entries).toHaveLength(100_000);
    expect(new Set(entries).size).toBe(100_000);
    expect(list.count).toBe(100_000);
  });

  it.each(['password', '123456', 'qwertyuiop', '1qaz2wsx3edc'])('knows %s as common', async (pw) => {
    expect(await isCommonPassword(pw)).toBe(true);
  });

  it('hashes with bcrypt cost 10 as $2a$ and verifies', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$2a\$10\$/);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('wrong', hash)).toBe(false);
  });

  it.each(['$2a$', '$2b$', '$2y$'])('accepts %s hashes from other bcrypt implementations', async (prefix) => {
    const hash = `${prefix}${bcrypt.hashSync('imported-Pass', 4).slice(4)}`;
    expect(await verifyPassword('imported-Pass', hash)).toBe(true);
  });

  it.each(['', 'plain', '$1$abc', '$2a$10$short'])('never matches the malformed hash %j', async (hash) => {
    expect(await verifyPassword('plain', hash)).toBe(false);
  });

  it.each([
    ['', 12, 'password is empty'],
    ['short', 12, 'password is too short, minimum length is 12'],
    ['ñññññ', 11, 'password is too short, minimum length is 11'],
    ['qwertyuiop', 8, 'password is too easy'],
  ])('refuses %j (minimum %i) with "%s"', async (pw, min, message) => {
    await expect(validatePassword(pw, min)).rejects.toMatchObject({ status: 400, message });
  });

  it('accepts a long uncommon password', async () => {
    await expect(validatePassword('Tr0ub4dor&3-horse-staple', 12)).resolves.toBeUndefined();
  });
});

describe('the sorted common-password list', () => {
  const sorted = sortedList(list.passwords);

  it('finds every one of the 100,000 passwords and nothing else', () => {
    const entries = list.passwords.split('\n');
    expect(entries.every((pw) => hasLine(sorted, pw))).toBe(true);
    for (const other of ['', 'correct horse battery staple', 'password!x-filemgr', 'filemgr-not-common-7781', 'zzzzzzzzzzzzzzzzzzzzzz', '\u00e9t\u00e9-unique-2026']) {
      expect([other, hasLine(sorted, other)]).toEqual([other, false]);
    }
  });

  it('is sorted bytewise, one password per line', () => {
    const lines = sorted.toString('utf8').split('\n');
    expect(lines).toHaveLength(100_000);
    for (let i = 1; i < lines.length; i++) expect(Buffer.compare(Buffer.from(lines[i - 1]!), Buffer.from(lines[i]!))).toBe(-1);
  });
});
