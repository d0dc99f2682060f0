import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTree } from '../../tests/support/tree';
import { emptyDatabase } from '../state/initial';
import type { Rule, Settings, UserRecord } from '../state/schema';
import { createGateFactory, sharePathOf } from './gates';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

const deny = (path: string): Rule => ({ regex: false, allow: false, path, regexp: null });

async function setup(): Promise<{ root: string; settings: Settings; user: UserRecord }> {
  const root = await makeTree({
    'home/projects/private/secret.txt': 's',
    'home/projects/public/readme.txt': 'r',
    'home/.env': 'e',
    'other/x': 'x',
  });
  roots.push(root);
  const settings = emptyDatabase().settings;
  const user = { id: 7, username: 'owner', scope: '/home', rules: [deny('/projects/private')], hideDotfiles: true } as unknown as UserRecord;
  return { root, settings, user };
}

describe('createGateFactory', () => {
  it("roots a user's gate at their scope with their rules and dotfile flag", async () => {
    const { root, settings, user } = await setup();
    const gates = await createGateFactory({ root, followExternalSymlinks: false, databasePath: '', cacheDir: '' });
    const gate = await gates.forUser(user, settings);
    expect(await readFile((await gate.resolve('/projects/public/readme.txt')).real, 'utf8')).toBe('r');
    await expect(gate.resolve('/projects/private/secret.txt')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(gate.resolve('/.env')).rejects.toMatchObject({ code: 'forbidden' });
    expect((await gate.resolve('/../other/x')).real).toBe(join(root, 'home/other/x'));
    expect(gate.hasRules).toBe(true);
    expect(gate.descendantAllows('/.env')).toBe(true);
    expect(gate.descendantAllows('/projects/private/a')).toBe(false);
  });

  it("roots a share's gate at the shared folder and checks the owner's rules on full paths", async () => {
    const { root, settings, user } = await setup();
    const gates = await createGateFactory({ root, followExternalSymlinks: false, databasePath: '', cacheDir: '' });
    const gate = await gates.forShare(user, settings, '/projects');
    expect(await readFile((await gate.resolve('/public/readme.txt')).real, 'utf8')).toBe('r');
    await expect(gate.resolve('/private/secret.txt')).rejects.toMatchObject({ code: 'forbidden' });
    expect((await gate.resolve('/../public')).real).toBe(join(root, 'home/projects/public'));
    expect(gate.realRoot).toBe(join(root, 'home/projects'));
  });

  it('detects that the test filesystem is case-sensitive', async () => {
    const { root } = await setup();
    const gates = await createGateFactory({ root, followExternalSymlinks: false, databasePath: '', cacheDir: '' });
    expect(gates.caseInsensitive).toBe(false);
  });
});

describe('sharePathOf', () => {
  it.each([
    ['/projects', '/', '/projects'],
    ['/projects', '/a/b', '/projects/a/b'],
    ['/', '/a', '/a'],
    ['/projects/', '/../x', '/projects/x'],
  ])('places %j + %j at %j', (share, path, out) => {
    expect(sharePathOf(share, path)).toBe(out);
  });
});
