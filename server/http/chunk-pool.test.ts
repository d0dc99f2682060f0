import { describe, expect, it } from 'vitest';
import { activeLeases, chunkSizeFor, leaseChunks, MAX_CHUNK, MIN_CHUNK, releaseKeptChunks } from './chunk-pool';

describe('chunk pool', () => {
  it('gives a lone download 1 MiB chunks and shrinks them as more run, down to 64 KiB', () => {
    expect(chunkSizeFor(1)).toBe(MAX_CHUNK);
    expect(chunkSizeFor(16)).toBe(MAX_CHUNK);
    expect(chunkSizeFor(50)).toBe(256 * 1024);
    expect(chunkSizeFor(200)).toBe(MIN_CHUNK);
    expect(chunkSizeFor(5000)).toBe(MIN_CHUNK);
  });

  it('sizes a small file its own buffer', () => {
    const lease = leaseChunks(1000);
    expect(lease.size).toBe(1000);
    expect(lease.take().length).toBe(1000);
    lease.drop();
  });

  it('reuses the buffers a finished download gave back, never those of a dropped one', () => {
    releaseKeptChunks();
    const first = leaseChunks(10 * MAX_CHUNK);
    const buffer = first.take();
    first.release([buffer]);
    const second = leaseChunks(10 * MAX_CHUNK);
    expect(second.take()).toBe(buffer);
    const other = second.take();
    second.drop();
    second.release([other]);
    const third = leaseChunks(10 * MAX_CHUNK);
    expect(third.take()).not.toBe(other);
    third.drop();
    expect(activeLeases()).toBe(0);
  });

  it('counts a lease once however it ends', () => {
    const lease = leaseChunks(MAX_CHUNK);
    expect(activeLeases()).toBe(1);
    lease.release([]);
    lease.drop();
    expect(activeLeases()).toBe(0);
  });
});
