import { appsForEachTest } from '../../../tests/support/per-test';
import { lstat, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestAppOptions } from '../../../tests/support/test-app';
import { call, userWith } from '../../../tests/support/resource-calls';

const start = appsForEachTest();
const exists = (p: string) => lstat(p).then(() => true, () => false);
// Hooks get the server's environment; tests pass PATH so `sh` is found.
const env = { PATH: process.env.PATH };

function withHooks(commands: Record<string, string[]>, shell: string[] = []): TestAppOptions {
  return {
    env,
    config: { enableExec: true },
    settings: (s) => {
      s.commands = { ...s.commands, ...commands };
      s.shell = shell;
    },
  };
}

describe('event hooks (api.md 9)', () => {
  it('a failing before_ hook stops the save and keeps the file', async () => {
    const t = await start({ tree: { 'f.txt': 'old' }, ...withHooks({ before_save: ['false'] }) });
    const res = await call(t, { method: 'PUT', url: '/api/resources/f.txt', payload: 'new' });
    expect(res.statusCode).toBe(500);
    expect(await readFile(join(t.root, 'f.txt'), 'utf8')).toBe('old');
  });

  it('runs upload hooks for directory creation: after_upload fails with 500 but the directory exists', async () => {
    const t = await start(withHooks({ after_upload: ['filemgr-no-such-command-xyz'] }));
    const creator = await userWith(t, 'creator', 'create');
    const res = await call(t, { method: 'POST', url: '/api/resources/created/', as: creator });
    expect(res.statusCode).toBe(500);
    expect((await stat(join(t.root, 'created'))).isDirectory()).toBe(true);
  });

  it('removes a new file whose after_upload hook failed', async () => {
    const t = await start(withHooks({ after_upload: ['false'] }));
    expect((await call(t, { method: 'POST', url: '/api/resources/n.txt', payload: 'x' })).statusCode).toBe(500);
    expect(await exists(join(t.root, 'n.txt'))).toBe(false);
  });

  it('exports FILE, DESTINATION, SCOPE, TRIGGER and USERNAME to the program', async () => {
    const opts = withHooks({ after_copy: ['printf \'%s\\n\' "$FILE" "$DESTINATION" "$SCOPE" "$TRIGGER" "$USERNAME" > "$FILE.env"'] }, ['sh', '-c']);
    const t = await start({ tree: { 'a.txt': 'a' }, ...opts });
    expect((await call(t, { method: 'PATCH', url: '/api/resources/a.txt?action=copy&destination=%2Fb.txt' })).statusCode).toBe(200);
    const lines = (await readFile(join(t.root, 'a.txt.env'), 'utf8')).trim().split('\n');
    expect(lines).toEqual([join(t.root, 'a.txt'), join(t.root, 'b.txt'), '/', 'after_copy', 'admin']);
  });

  it('with a shell, a file name is data: $FILE reaches the command only through the environment', async () => {
    const name = 'a;touch INJECTED;.txt';
    const t = await start({ tree: { [name]: 'x' }, ...withHooks({ before_delete: ['printf "%s" "$FILE" > "$DESTINATION/seen"'] }, ['sh', '-c']) });
    expect((await call(t, { method: 'DELETE', url: `/api/resources/${encodeURIComponent(name)}` })).statusCode).toBe(204);
    expect(await readFile(join(t.root, 'seen'), 'utf8')).toBe(join(t.root, name));
    expect(await exists(join(t.root, 'INJECTED'))).toBe(false);
    expect(await exists(join(t.root, name))).toBe(false);
  });

  it('runs rename hooks around a move with the destination', async () => {
    const t = await start({ tree: { 'a.txt': 'a' }, ...withHooks({ before_rename: ['sh -c "test -e \\"$FILE\\" && touch \\"$FILE.before\\""'], after_rename: ['sh -c "test -e \\"$DESTINATION\\" && touch \\"$DESTINATION.after\\""'] }) });
    expect((await call(t, { method: 'PATCH', url: '/api/resources/a.txt?action=rename&destination=%2Fb.txt' })).statusCode).toBe(200);
    expect(await exists(join(t.root, 'a.txt.before'))).toBe(true);
    expect(await exists(join(t.root, 'b.txt.after'))).toBe(true);
  });

  it('without a shell, expands $FILE into one argument', async () => {
    const t = await start({ tree: { 'my file.txt': 'x' }, ...withHooks({ after_save: ['touch ${FILE}.saved'] }) });
    expect((await call(t, { method: 'PUT', url: '/api/resources/my%20file.txt', payload: 'y' })).statusCode).toBe(200);
    expect(await exists(join(t.root, 'my file.txt.saved'))).toBe(true);
  });

  it('runs nothing when exec is disabled', async () => {
    const t = await start({ tree: { 'f.txt': 'old' }, ...withHooks({ before_save: ['false'] }), config: { enableExec: false } });
    expect((await call(t, { method: 'PUT', url: '/api/resources/f.txt', payload: 'new' })).statusCode).toBe(200);
    expect(await readFile(join(t.root, 'f.txt'), 'utf8')).toBe('new');
  });
});
