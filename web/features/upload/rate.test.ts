import { describe, expect, it } from 'vitest';
import { createRateMeter } from './rate';

describe('the rate meter', () => {
  it('needs two samples, then gives the speed and the seconds left', () => {
    const meter = createRateMeter();
    expect(meter.sample(0, 0, 10_000)).toBeNull();
    expect(meter.sample(1000, 1000, 10_000)).toEqual({ bytesPerSecond: 1000, secondsLeft: 9 });
  });

  it('smooths a sudden change and starts over after a reset', () => {
    const meter = createRateMeter();
    meter.sample(0, 0, 100_000);
    meter.sample(1000, 1000, 100_000);
    const rate = meter.sample(2000, 11_000, 100_000);
    expect(rate?.bytesPerSecond).toBeCloseTo(0.3 * 10_000 + 0.7 * 1000);
    meter.reset();
    expect(meter.sample(3000, 12_000, 100_000)).toBeNull();
  });
});
