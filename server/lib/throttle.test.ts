import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { createThrottle, DEFAULT_THROTTLE_LIMITS } from './throttle';

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

function retryAfter(fn: () => void): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError && err.status === 429) return err.headers['retry-after'];
    throw err;
  }
  return undefined;
}

describe('throttle', () => {
  it('locks a pair after 5 failures until the 15-minute window ends', () => {
    const c = clock();
    const t = createThrottle(DEFAULT_THROTTLE_LIMITS, c.now);
    for (let i = 0; i < 4; i++) t.fail('1.1.1.1', 'alice');
    expect(retryAfter(() => t.check('1.1.1.1', 'alice'))).toBeUndefined();
    t.fail('1.1.1.1', 'alice');
    expect(retryAfter(() => t.check('1.1.1.1', 'alice'))).toBe('900');
    expect(retryAfter(() => t.check('1.1.1.1', 'bob'))).toBeUndefined();
    expect(retryAfter(() => t.check('2.2.2.2', 'alice'))).toBeUndefined();
    c.advance(600_000);
    expect(retryAfter(() => t.check('1.1.1.1', 'alice'))).toBe('300');
    c.advance(300_000);
    expect(retryAfter(() => t.check('1.1.1.1', 'alice'))).toBeUndefined();
  });

  it('locks an address after 20 failures over any names, and a success does not reset it', () => {
    const t = createThrottle(DEFAULT_THROTTLE_LIMITS, clock().now);
    for (let i = 0; i < 19; i++) t.fail('1.1.1.1', `user${i}`);
    t.succeed('1.1.1.1', 'user0');
    expect(retryAfter(() => t.check('1.1.1.1', 'fresh'))).toBeUndefined();
    t.fail('1.1.1.1', 'another');
    expect(retryAfter(() => t.check('1.1.1.1', 'fresh'))).toBeDefined();
  });

  it('clears a pair on success', () => {
    const t = createThrottle(DEFAULT_THROTTLE_LIMITS, clock().now);
    for (let i = 0; i < 4; i++) t.fail('1.1.1.1', 'alice');
    t.succeed('1.1.1.1', 'alice');
    t.fail('1.1.1.1', 'alice');
    expect(retryAfter(() => t.check('1.1.1.1', 'alice'))).toBeUndefined();
  });

  it('guard counts only the listed failures and refuses even a correct attempt during a lockout', async () => {
    const t = createThrottle({ ...DEFAULT_THROTTLE_LIMITS, perPair: 2 }, clock().now);
    const key = { address: '1.1.1.1', name: 'alice' };
    await expect(t.guard(key, () => Promise.reject(new AppError('not_found')))).rejects.toThrow();
    await expect(t.guard(key, () => Promise.reject(new AppError('unauthorized')))).rejects.toThrow();
    await expect(t.guard(key, () => Promise.reject(new AppError('unauthorized')))).rejects.toThrow();
    await expect(t.guard(key, () => Promise.resolve('ok'))).rejects.toMatchObject({ code: 'too_many_requests' });
  });

  it('keeps at most maxEntries windows', () => {
    const t = createThrottle({ ...DEFAULT_THROTTLE_LIMITS, maxEntries: 10, perPair: 1 }, clock().now);
    for (let i = 0; i < 50; i++) t.fail(`10.0.0.${i}`, 'x');
    expect(retryAfter(() => t.check('10.0.0.49', 'x'))).toBeDefined();
    expect(retryAfter(() => t.check('10.0.0.0', 'x'))).toBeUndefined();
  });
});
