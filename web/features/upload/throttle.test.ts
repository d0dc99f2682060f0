import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle';

describe('throttle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the first call at once and folds the calls of the next 100 ms into one at its end', () => {
    const fn = vi.fn();
    const call = throttle(fn, 100);
    call();
    expect(fn).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(5);
      call();
    }
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(50);
    expect(fn).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(500);
    expect(fn).toHaveBeenCalledTimes(2);
    call();
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('flushes a pending call now, and cancel drops it', () => {
    const fn = vi.fn();
    const call = throttle(fn, 100);
    call();
    call();
    call.flush();
    expect(fn).toHaveBeenCalledTimes(2);
    call.flush();
    expect(fn).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10);
    call();
    call.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(2);
  });
});
