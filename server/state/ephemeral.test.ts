import { describe, expect, it } from 'vitest';
import { createMemoryEphemeral } from './ephemeral';

describe('the in-process shared-ephemeral store', () => {
  it('lets exactly one of many concurrent increments take the last step', async () => {
    const store = createMemoryEphemeral({ sweepMs: 0 });
    await store.add('dl', 4);
    const results = await Promise.all(Array.from({ length: 20 }, () => store.incrementIfBelow('dl', 5)));
    expect(results.filter((r) => r !== null)).toEqual([5]);
    expect(await store.count('dl')).toBe(5);
  });

  it('counts events in a window that restarts after its length', async () => {
    let t = 1000;
    const store = createMemoryEphemeral({ now: () => t, sweepMs: 0 });
    expect(await store.hit('k', 60_000)).toBe(1);
    expect(await store.hit('k', 60_000)).toBe(2);
    t += 60_000;
    expect(await store.hit('k', 60_000)).toBe(1);
  });

  it('keeps at most maxWindows windows, dropping ended ones first, then the oldest', async () => {
    let t = 0;
    const store = createMemoryEphemeral({ now: () => t, sweepMs: 0, maxWindows: 3 });
    await store.hit('short', 10);
    await store.hit('a', 60_000);
    await store.hit('b', 60_000);
    t = 20;
    await store.hit('c', 60_000);
    expect(await store.peekWindow('a', 60_000)).toBeDefined();
    await store.hit('d', 60_000);
    expect(await store.peekWindow('a', 60_000)).toBeUndefined();
    expect((await store.peekWindow('d', 60_000))?.count).toBe(1);
    expect(await store.peekWindow('b', 60_000)).toEqual({ count: 1, endsInMs: 59_980 });
  });

  it('hands back copies of records, lists them by prefix and forgets them when they expire', async () => {
    let t = 0;
    const store = createMemoryEphemeral({ now: () => t, sweepMs: 0 });
    const value = { owner: 'ann', depth: 0 };
    await store.put('lock:/a', value, 1000);
    await store.put('lock:/b', { owner: 'bob', depth: 1 });
    await store.put('other', 1);
    value.owner = 'changed';
    expect(await store.get('lock:/a')).toEqual({ owner: 'ann', depth: 0 });
    expect((await store.list('lock:')).map((r) => r.key).sort()).toEqual(['lock:/a', 'lock:/b']);
    t = 1000;
    expect(await store.get('lock:/a')).toBeUndefined();
    expect((await store.list('lock:')).map((r) => r.key)).toEqual(['lock:/b']);
    await store.delete('lock:/b');
    expect(await store.list('lock:')).toEqual([]);
  });

  it('runs the holders of one lock one after another, also when one throws', async () => {
    const store = createMemoryEphemeral({ sweepMs: 0 });
    const order: string[] = [];
    const hold = (name: string, ms: number, fail = false) =>
      store.withLock('x', async () => {
        order.push(`${name} in`);
        await new Promise((r) => setTimeout(r, ms));
        order.push(`${name} out`);
        if (fail) throw new Error(name);
      });
    const results = await Promise.allSettled([hold('a', 20, true), hold('b', 5), hold('c', 1)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(order).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
  });
});
