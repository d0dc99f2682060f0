import type { PermissionsWire } from '@contract/user';
import { describe, expect, it } from 'vitest';
import type { TokenUser } from '../api/types';
import { readPageConfig } from '../lib/page-config';
import { abilitiesOf, mayOpen, type Abilities } from './abilities';

const NONE: PermissionsWire = { admin: false, execute: false, create: false, rename: false, modify: false, delete: false, share: false, download: false };

function user(perm: Partial<PermissionsWire>, lockPassword = false): TokenUser {
  return {
    id: 1, username: 'u', locale: 'en', lockPassword, viewMode: 'list', singleClick: false, redirectAfterCopyMove: false,
    perm: { ...NONE, ...perm }, commands: [], hideDotfiles: false, dateFormat: false, aceEditorTheme: '',
  };
}

const config = (over: Partial<{ EnableExec: boolean; LoginPage: boolean }> = {}) => ({ ...readPageConfig(undefined), EnableExec: true, LoginPage: true, ...over });

describe('abilitiesOf', () => {
  it('holds nothing but a password change while signed out', () => {
    const all = abilitiesOf(null, config());
    expect(Object.entries(all).filter(([, on]) => on).map(([key]) => key)).toEqual(['changePassword']);
  });

  it.each<[string, Partial<PermissionsWire>, Partial<Abilities>]>([
    ['download', { download: true }, { download: true }],
    ['share without download', { share: true }, { share: false, shares: true }],
    ['share with download', { share: true, download: true }, { share: true, shares: true, download: true }],
    ['create', { create: true }, { create: true, copy: true }],
    ['rename', { rename: true }, { rename: true, move: true }],
    ['modify', { modify: true }, { modify: true }],
    ['delete', { delete: true }, { delete: true }],
    ['execute', { execute: true }, { shell: true }],
    ['admin', { admin: true }, { admin: true }],
  ])('derives from the %s permission', (_name, perm, expected) => {
    const got = abilitiesOf(user(perm), config());
    const on = Object.fromEntries(Object.entries(got).filter(([key, value]) => value && key !== 'changePassword'));
    expect(on).toEqual(Object.fromEntries(Object.entries(expected).filter(([, v]) => v)));
  });

  it('offers the shell only with the command runner enabled', () => {
    expect(abilitiesOf(user({ execute: true }), config({ EnableExec: false })).shell).toBe(false);
  });

  it.each([
    [false, true, true],
    [true, true, false],
    [false, false, false],
  ])('lets a password change (locked %s, login page %s): %s', (locked, loginPage, expected) => {
    expect(abilitiesOf(user({}, locked), config({ LoginPage: loginPage })).changePassword).toBe(expected);
  });
});

describe('mayOpen', () => {
  it.each([
    ['user', {}, true],
    ['share', {}, false],
    ['share', { share: true }, true],
    ['admin', { share: true }, false],
    ['admin', { admin: true }, true],
  ] as const)('a %s page with %o: %s', (access, perm, expected) => {
    expect(mayOpen(abilitiesOf(user(perm), config()), access)).toBe(expected);
  });
});
