import { describe, expect, it } from 'vitest';
import { cycleScale, IDENTITY, maxScale, pinchZoom, transformOf, wheelZoom, zoomAt } from './zoom';

describe('image zoom', () => {
  it('steps by 0.25 per wheel notch, in on wheel up and out on wheel down', () => {
    const up = wheelZoom(IDENTITY, -100, { max: 5, at: { x: 0, y: 0 } });
    expect(up.scale).toBe(1.25);
    expect(wheelZoom(up, 100, { max: 5, at: { x: 0, y: 0 } }).scale).toBe(1);
  });

  it('never goes below 0.25 nor above the maximum', () => {
    let view = IDENTITY;
    for (let i = 0; i < 10; i++) view = wheelZoom(view, 1, { max: 5, at: { x: 0, y: 0 } });
    expect(view.scale).toBe(0.25);
    for (let i = 0; i < 40; i++) view = wheelZoom(view, -1, { max: 5, at: { x: 0, y: 0 } });
    expect(view.scale).toBe(5);
  });

  it('allows about 4 plus the natural-to-displayed ratio', () => {
    expect(maxScale(3)).toBe(7);
    expect(maxScale(Number.NaN)).toBe(5);
  });

  it.each([[1, 2], [2, 4], [4, 1], [1.25, 2], [6, 1], [0.5, 1]])('double click from %s goes to %s', (from, to) => {
    expect(cycleScale(from)).toBe(to);
  });

  it('keeps the point under the pointer still while zooming', () => {
    const at = { x: 100, y: -40 };
    const view = zoomAt({ scale: 2, x: 10, y: 20 }, 4, at);
    // The image point under `at` before: (at - t) / s; after, it must map to `at` again.
    const before = { x: (at.x - 10) / 2, y: (at.y - 20) / 2 };
    expect(view.x + view.scale * before.x).toBeCloseTo(at.x);
    expect(view.y + view.scale * before.y).toBeCloseTo(at.y);
  });

  it('centres the image again at scale 1 or less', () => {
    expect(zoomAt({ scale: 2, x: 50, y: 50 }, 1, { x: 30, y: 30 })).toEqual(IDENTITY);
  });

  it('pinches from the scale the gesture started with', () => {
    expect(pinchZoom({ scale: 2, x: 0, y: 0 }, 1.5, { max: 8, at: { x: 0, y: 0 } }).scale).toBe(3);
    expect(pinchZoom({ scale: 2, x: 0, y: 0 }, 0.01, { max: 8, at: { x: 0, y: 0 } }).scale).toBe(0.25);
  });

  it('writes the transform as translate then scale', () => {
    expect(transformOf({ scale: 1.5, x: 3, y: -4 })).toBe('translate(3px, -4px) scale(1.5)');
  });
});
