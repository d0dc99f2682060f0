import { describe, expect, it } from 'vitest';
import { nextSorting, shownOrder } from './state';

describe('shownOrder', () => {
  it.each([
    ['name', false, 'ascending'],
    ['name', true, 'descending'],
    ['size', true, 'ascending'],
    ['size', false, 'descending'],
    ['modified', true, 'ascending'],
    ['modified', false, 'descending'],
  ] as const)('%s with asc %s reads %s on screen', (by, asc, order) => {
    expect(shownOrder(by, asc)).toBe(order);
  });
});

describe('nextSorting', () => {
  it.each([
    [{ by: 'name', asc: false }, 'name', { by: 'name', asc: true }],
    [{ by: 'name', asc: true }, 'name', { by: 'name', asc: false }],
    [{ by: 'name', asc: false }, 'size', { by: 'size', asc: false }],
    [{ by: 'size', asc: false }, 'size', { by: 'size', asc: true }],
    [{ by: 'modified', asc: true }, 'name', { by: 'name', asc: false }],
  ] as const)('from %o a click on %s asks for %o', (current, by, expected) => {
    expect(nextSorting(current, by)).toEqual(expected);
  });
});
