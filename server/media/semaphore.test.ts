import { describe, expect, it } from 'vitest';
import { createSemaphore } from './semaphore';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe('createSemaphore', () => {
  it.each([1, 2, 4])('never runs more than %i tasks at once', async (limit) => {
    const sem = createSemaphore(limit);
    let running = 0;
    let peak = 0;
    const task = async () => {
      running++;
      peak = Math.max(peak, running);
      await tick();
      await tick();
      running--;
    };
    await Promise.all(Array.from({ length: 20 }, () => sem.run(task)));
    expect(peak).toBe(limit);
    expect(sem.active).toBe(0);
    expect(sem.waiting).toBe(0);
  });

  it('queues the rest and starts them in arrival order', async () => {
    const sem = createSemaphore(1);
    const order: number[] = [];
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const first = sem.run(async () => {
      await gate;
      order.push(0);
    });
    const rest = [1, 2, 3].map((n) => sem.run(() => Promise.resolve(order.push(n))));
    await tick();
    expect(sem.active).toBe(1);
    expect(sem.waiting).toBe(3);
    openGate();
    await Promise.all([first, ...rest]);
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('frees the slot when a task fails and passes the failure on', async () => {
    const sem = createSemaphore(1);
    await expect(sem.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(sem.run(() => Promise.resolve('next'))).resolves.toBe('next');
    expect(sem.active).toBe(0);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses the limit %s', (limit) => {
    expect(() => createSemaphore(limit)).toThrow(RangeError);
  });
});
