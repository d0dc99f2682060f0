import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { createMemoryEphemeral } from '../state/ephemeral';
import { createThrottle, DEFAULT_THROTTLE_LIMITS } from './throttle';

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

async function retryAfter(fn: () => Promise<void>): Promise<string | undefined> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof AppError && err.status === 429) return err.headers['retry-after'];
    throw err;
  }
  return undefined;
}

describe('throttle', () => {
  it('locks a pair after 5 failures until the 15-minute window ends', async () => {
    const c = clock();
    const t = createThrottle({ windows: createMemoryEphemeral({ now: c.now, sweepMs: 0 }) });
    for (let i = 0; i < 4; i++) await t.fail('1.1.1.1', 'alice');
    expect(await retryAfter(() => t.check('1.1.1.1', 'alice'))).toBeUndefined();
    await t.fail('1.1.1.1', 'alice');
    expect(await retryAfter(() => t.check('1.1.1.1', 'alice'))).toBe('900');
    expect(await retryAfter(() => t.check('1.1.1.1', 'bob'))).toBeUndefined();
    expect(await retryAfter(() => t.check('2.2.2.2', 'alice'))).toBeUndefined();
    c.advance(600_000);
    expect(await retryAfter(() => t.check('1.1.1.1', 'alice'))).toBe('300');
    c.advance(300_000);
    expect(await retryAfter(() => t.check('1.1.1.1', 'alice'))).toBeUndefined();
  });

  it('locks an address after 20 failures over any names, and a success does not reset it', async () => {
    const t = createThrottle({ windows: createMemoryEphemeral({ now: clock().now, sweepMs: 0 }) });
    for (let i = 0; i < 19; i++) await t.fail('1.1.1.1', `user${i}`);
    await t.succeed('1.1.1.1', 'user0');
    expect(await retryAfter(() => t.check('1.1.1.1', 'fresh'))).toBeUndefined();
    await t.fail('1.1.1.1', 'another');
    expect(await retryAfter(() => t.check('1.1.1.1', 'fresh'))).toBeDefined();
  });

  it('clears a pair on success', async () => {
    const t = createThrottle({ windows: createMemoryEphemeral({ now: clock().now, sweepMs: 0 }) });
    for (let i = 0; i < 4; i++) await t.fail('1.1.1.1', 'alice');
    await t.succeed('1.1.1.1', 'alice');
    await t.fail('1.1.1.1', 'alice');
    expect(await retryAfter(() => t.check('1.1.1.1', 'alice'))).toBeUndefined();
  });

  it('guard counts only the listed failures and refuses even a correct attempt during a lockout', async () => {
    const t = createThrottle({ limits: { ...DEFAULT_THROTTLE_LIMITS, perPair: 2 }, windows: createMemoryEphemeral({ now: clock().now, sweepMs: 0 }) });
    const key = { address: '1.1.1.1', name: 'alice' };
    await expect(t.guard(key, () => Promise.reject(new AppError('not_found')))).rejects.toThrow();
    await expect(t.guard(key, () => Promise.reject(new AppError('unauthorized')))).rejects.toThrow();
    await expect(t.guard(key, () => Promise.reject(new AppError('unauthorized')))).rejects.toThrow();
    await expect(t.guard(key, () => Promise.resolve('ok'))).rejects.toMatchObject({ code: 'too_many_requests' });
  });

  it('keeps at most the windows its in-process store keeps (maxWindows), the newest', async () => {
    const t = createThrottle({ limits: { ...DEFAULT_THROTTLE_LIMITS, perPair: 1 }, windows: createMemoryEphemeral({ now: clock().now, sweepMs: 0, maxWindows: 10 }) });
    for (let i = 0; i < 50; i++) await t.fail(`10.0.0.${i}`, 'x');
    expect(await retryAfter(() => t.check('10.0.0.49', 'x'))).toBeDefined();
    expect(await retryAfter(() => t.check('10.0.0.0', 'x'))).toBeUndefined();
  });

  it('counts the failures seen by every throttle on one shared store (several instances)', async () => {
    const shared = createMemoryEphemeral({ sweepMs: 0 });
    const [a, b, c] = [createThrottle({ windows: shared }), createThrottle({ windows: shared }), createThrottle({ windows: shared })];
    for (const node of [a, b, c, a, b]) await node.fail('1.1.1.1', 'Alice');
    for (const node of [a, b, c]) expect(await retryAfter(() => node.check('1.1.1.1', 'alice'))).toBeDefined();
    await a.succeed('1.1.1.1', 'alice');
    expect(await retryAfter(() => c.check('1.1.1.1', 'alice'))).toBeUndefined();
  });
});
