/** Upload speed and the time left, for the queue's summary line. */
export interface Rate {
  bytesPerSecond: number;
  /** Whole seconds until the batch ends at this speed. */
  secondsLeft: number;
}

// The newest sample counts this much: the speed follows changes within a second or two without
// jumping on every 100 ms step.
const WEIGHT = 0.3;

/** A speed meter fed with (time, bytes sent so far, bytes in all); null until two samples exist. */
export function createRateMeter() {
  let previous: { at: number; sent: number } | null = null;
  let speed: number | null = null;
  return {
    sample(at: number, sent: number, total: number): Rate | null {
      if (previous && at > previous.at && sent >= previous.sent) {
        const now = ((sent - previous.sent) * 1000) / (at - previous.at);
        speed = speed === null ? now : WEIGHT * now + (1 - WEIGHT) * speed;
      }
      previous = { at, sent };
      if (speed === null || speed <= 0) return null;
      return { bytesPerSecond: speed, secondsLeft: Math.ceil(Math.max(0, total - sent) / speed) };
    },
    reset(): void {
      previous = null;
      speed = null;
    },
  };
}
