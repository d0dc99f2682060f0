import { describe, expect, it } from 'vitest';
import { MAX_ACTIVE, percent, sentBytes, toStart, type Job } from './queue';

function jobs(statuses: Job['status'][]): Job[] {
  return statuses.map((status, i) => ({ id: i + 1, name: `f${i}`, path: `/f${i}`, size: 10, file: null, overwrite: false, status }));
}

describe('the upload queue', () => {
  it('starts at most five at once, in queue order', () => {
    expect(MAX_ACTIVE).toBe(5);
    expect(toStart(jobs(Array<Job['status']>(8).fill('queued'))).map((j) => j.id)).toEqual([1, 2, 3, 4, 5]);
    expect(toStart(jobs(['active', 'active', 'queued', 'active', 'queued', 'queued', 'queued'])).map((j) => j.id)).toEqual([3, 5]);
    expect(toStart(jobs(['active', 'active', 'active', 'active', 'active', 'queued']))).toEqual([]);
    expect(toStart(jobs(['active']))).toEqual([]);
  });

  it('adds the running uploads\' bytes to the finished ones', () => {
    expect(sentBytes(100, new Map([[1, 5], [2, 7]]))).toBe(112);
    expect(sentBytes(0, new Map())).toBe(0);
  });

  it.each([
    [0, 10, 0],
    [5, 10, 50],
    [9.99, 10, 99],
    [10, 10, 100],
    [12, 10, 100],
    [0, 0, 100],
  ])('shows %s of %s as %s%%', (part, total, expected) => {
    expect(percent(part, total)).toBe(expected);
  });
});
