import { describe, expect, it } from 'vitest';
import { errorKind, statusOf } from './errors';

describe('error screens', () => {
  it.each([
    [0, 'connection'],
    [403, 'forbidden'],
    [404, 'notFound'],
    [500, 'internal'],
    [502, 'internal'],
    [409, 'internal'],
  ])('status %i shows %s', (status, kind) => {
    expect(errorKind(status)).toBe(kind);
  });

  it.each([
    [{ status: 404 }, 404],
    [{ status: '404' }, 500],
    [new Error('x'), 500],
    [null, 500],
  ])('statusOf(%j) = %i', (error, expected) => {
    expect(statusOf(error)).toBe(expected);
  });
});
