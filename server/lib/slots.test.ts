import { describe, expect, it } from 'vitest';
import { createSlots } from './slots';

describe('createSlots', () => {
  it('gives at most max slots and hands a freed one to the first waiter', async () => {
    const slots = createSlots(2);
    const a = await slots.acquire();
    const b = await slots.acquire();
    const order: string[] = [];
    const c = slots.acquire().then((free) => (order.push('c'), free));
    const d = slots.acquire().then((free) => (order.push('d'), free));
    expect([slots.busy(), slots.waiting()]).toEqual([2, 2]);
    a();
    a();
    const freeC = await c;
    expect(order).toEqual(['c']);
    expect([slots.busy(), slots.waiting()]).toEqual([2, 1]);
    b();
    (await d)();
    freeC();
    expect([slots.busy(), slots.waiting()]).toEqual([0, 0]);
    expect(order).toEqual(['c', 'd']);
  });

  it('refuses a count that is not a positive integer', () => {
    expect(() => createSlots(0)).toThrow(RangeError);
  });
});
