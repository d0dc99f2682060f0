import { describe, expect, it } from 'vitest';
import { itemMenuEntries } from './menu-entries';
import type { FileActions } from './use-file-actions';

const run = (): void => undefined;

function actionsOf(has: Partial<FileActions['has']>, can: Partial<FileActions['can']>): FileActions {
  const all = { download: false, share: false, rename: false, copy: false, move: false, delete: false, paste: false };
  return {
    has: { ...all, create: false, modify: false, shell: false, shares: false, admin: false, changePassword: false, ...has },
    can: { ...all, ...can },
    download: run, info: run, share: run, rename: run, copy: run, move: run, remove: run, paste: run,
  } as unknown as FileActions;
}

describe('itemMenuEntries', () => {
  it('leaves out what the user may not do and disables what does not apply, in the toolbar order', () => {
    const entries = itemMenuEntries(actionsOf({ rename: true, move: true, delete: true }, { move: true, delete: true }), (key) => key);
    expect(entries.map((e) => [e.id, e.disabled ?? false])).toEqual([
      ['info', false], ['rename', true], ['move', false], ['delete', false],
    ]);
  });

  it('offers download and paste only when they apply, as the toolbar shows them', () => {
    const entries = itemMenuEntries(actionsOf({ download: true, copy: true }, { download: true, copy: true, paste: true }), (key) => key.toUpperCase());
    expect(entries.map((e) => e.label)).toEqual(['DOWNLOAD', 'INFO', 'COPY', 'PASTE']);
  });
});
