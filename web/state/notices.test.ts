import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { noticesAtom, notifyAtom } from './notices';

describe('notifyAtom', () => {
  it('replaces the error on screen with a new one, and keeps the successes', () => {
    const store = createStore();
    store.set(notifyAtom, { kind: 'error', message: { key: 'errors.internal' } });
    store.set(notifyAtom, { kind: 'success', message: { key: 'settings.updated' } });
    store.set(notifyAtom, { kind: 'error', message: { key: 'serverErrors.wrongCurrentPassword' } });
    const shown = store.get(noticesAtom).map((n) => [n.kind, 'key' in n.message ? n.message.key : '']);
    expect(shown).toEqual([['success', 'settings.updated'], ['error', 'serverErrors.wrongCurrentPassword']]);
  });
});
