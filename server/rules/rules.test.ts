import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import type { Rule } from '../state/schema';
import { descendantsAllowed, detectCaseInsensitive, hasRules, isAllowed, isDotfile, ruleContextFor, validateRules } from './rules';

const pathRule = (path: string, allow = false): Rule => ({ regex: false, allow, path, regexp: null });
const regexRule = (raw: string, allow = false): Rule => ({ regex: true, allow, path: '', regexp: { raw } });

function ctx(rules: { global?: Rule[]; user?: Rule[]; hideDotfiles?: boolean; fold?: boolean }) {
  return ruleContextFor({ rules: rules.user ?? [], hideDotfiles: rules.hideDotfiles ?? false }, { rules: rules.global ?? [] }, rules.fold ?? false);
}

describe('rules', () => {
  it.each([
    ['/uploads', '/uploads', false, true],
    ['/uploads', '/uploads/file.txt', false, true],
    ['/uploads', '/uploads_backup/secret.txt', false, false],
    ['/', '/anything', false, true],
    ['/uploads/', '/uploads/file.txt', false, true],
    ['/uploads/', '/uploads_backup/file.txt', false, false],
    ['/data/shared', '/data/shared/docs/file.txt', false, true],
    ['/data/shared', '/data/shared_private/file.txt', false, false],
    ['/Secret.txt', '/secret.TXT', false, false],
    ['/Secret.txt', '/secret.TXT', true, true],
    ['/Private', '/private/notes.txt', true, true],
    ['/uploads', '/uploads', true, true],
    ['/uploads', '/UPLOADS_backup/secret.txt', true, false],
    ['/data/shared', '/data/SHARED_private/x', true, false],
  ])('path rule %s against %s (fold %s) matches: %s', (...row) => {
    const [rule, path, fold, matched] = row;
    expect(isAllowed(ctx({ global: [pathRule(rule)], fold }), path)).toBe(!matched);
  });

  it.each([
    ['^/Secret\\.txt$', '/Secret.txt', true],
    ['^/Secret\\.txt$', '/secret.TXT', false],
    ['(?i)^/Secret\\.txt$', '/secret.TXT', true],
    ['(?i)^/Secret\\.txt$', '/Secret.txt', true],
    ['\\.log', '/var/app/x.log.1', true],
    ['\\A/a\\z', '/a', true],
    ['\\A/a\\z', '/a/b', false],
    ['(?P<ext>\\.md)$', '/notes.md', true],
  ])('regex rule %s against %s matches: %s (never folded)', (raw, path, matched) => {
    for (const fold of [false, true]) expect(isAllowed(ctx({ global: [regexRule(raw)], fold }), path)).toBe(!matched);
  });

  it.each([
    ['/', false],
    ['/src', false],
    ['/src/', false],
    ['/.circleci', true],
    ['/a/b/c/.docker.json', true],
    ['.docker.json', true],
    ['Dockerfile', false],
    ['/Dockerfile', false],
  ])('isDotfile(%s) is %s', (path, dot) => {
    expect(isDotfile(path)).toBe(dot);
  });

  it('hides only the dotfile itself when hideDotfiles is on', () => {
    const c = ctx({ hideDotfiles: true });
    expect(isAllowed(c, '/.git')).toBe(false);
    expect(isAllowed(c, '/.git/')).toBe(false);
    expect(isAllowed(c, '/.git/config')).toBe(true);
    expect(isAllowed(ctx({}), '/.git')).toBe(true);
  });

  it('lets the last matching rule win, user rules after global ones', () => {
    const global = [pathRule('/docs'), pathRule('/docs/public', true)];
    expect(isAllowed(ctx({ global }), '/docs/a.txt')).toBe(false);
    expect(isAllowed(ctx({ global }), '/docs/public/a.txt')).toBe(true);
    expect(isAllowed(ctx({ global, user: [pathRule('/docs', true)] }), '/docs/a.txt')).toBe(true);
    expect(isAllowed(ctx({ global: [pathRule('/docs', true)], user: [pathRule('/docs')] }), '/docs/a.txt')).toBe(false);
  });

  it('treats a regex rule without an expression as matching nothing', () => {
    const broken: Rule = { regex: true, allow: false, path: '/', regexp: null };
    expect(isAllowed(ctx({ global: [broken] }), '/x')).toBe(true);
    expect(isAllowed(ctx({ global: [regexRule('([unclosed')] }), '/x')).toBe(true);
  });

  it('answers hasRules only when a global or user rule exists', () => {
    expect(hasRules(ctx({}))).toBe(false);
    expect(hasRules(ctx({ user: [pathRule('/a')] }))).toBe(true);
    expect(hasRules(ctx({ global: [pathRule('/a')] }))).toBe(true);
  });

  describe('descendant check', () => {
    const c = ctx({ global: [pathRule('/src/secret'), pathRule('/dst/blocked')], hideDotfiles: true });

    it('refuses when a walked path is denied', async () => {
      expect(await descendantsAllowed(c, ['/src', '/src/public.txt', '/src/secret', '/src/secret/marker.txt'])).toBe(false);
      expect(await descendantsAllowed(c, ['/clean', '/clean/file.txt'])).toBe(true);
    });

    it('checks each destination path of a copy or move', async () => {
      const walk = ['/clean', '/clean/blocked', '/clean/blocked/x'];
      expect(await descendantsAllowed(c, walk, { from: '/clean', to: '/dst' })).toBe(false);
      expect(await descendantsAllowed(c, walk, { from: '/clean', to: '/other' })).toBe(true);
    });

    it('ignores dotfile hiding and accepts async walks', async () => {
      async function* walk() {
        yield await Promise.resolve('/clean/.env');
      }
      expect(await descendantsAllowed(c, walk())).toBe(true);
    });

    it('does not walk at all without rules', async () => {
      let pulled = 0;
      function* walk() {
        pulled++;
        yield '/x';
      }
      expect(await descendantsAllowed(ctx({}), walk())).toBe(true);
      expect(pulled).toBe(0);
    });
  });

  describe('validateRules', () => {
    it.each([
      [[regexRule('([unclosed')], /invalid regular expression in rule 0/],
      [[pathRule('/ok'), regexRule('(?U)lazy')], /rule 1/],
      [[regexRule('')], /rule 0 has no regular expression/],
      ['nope', /rules must be a list/],
      [[null], /rule 0 is not an object/],
    ])('refuses %j with 400', (rules, message) => {
      let caught: unknown;
      try {
        validateRules(rules);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).status).toBe(400);
      expect((caught as AppError).message).toMatch(message);
    });

    it('accepts path rules and valid RE2-style expressions', () => {
      expect(() => validateRules([pathRule('/a'), regexRule('(?i)^/a$'), regexRule('(?is)x.y')])).not.toThrow();
    });
  });

  describe('case-insensitivity probe', () => {
    it('leaves no probe file behind and answers a boolean', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'filemgr-case-'));
      const verdict = await detectCaseInsensitive(dir);
      expect(typeof verdict).toBe('boolean');
      expect(await readdir(dir)).toEqual([]);
    });

    it('says case-sensitive on this Linux temp directory', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'filemgr-case-'));
      expect(await detectCaseInsensitive(dir, 'linux')).toBe(false);
      expect(await readdir(dir)).toEqual([]);
    });

    it('falls back to the platform when the root is not writable', async () => {
      const missing = join(tmpdir(), 'filemgr-no-such-dir', 'x');
      expect(await detectCaseInsensitive(missing, 'darwin')).toBe(true);
      expect(await detectCaseInsensitive(missing, 'linux')).toBe(false);
    });
  });
});
