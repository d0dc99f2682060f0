import { describe, expect, it } from 'vitest';
import { rowHeightFor } from './row-height';

describe('rowHeightFor', () => {
  it('keeps list and mosaic rows at one height whatever the width', () => {
    expect(rowHeightFor('list', 400, 1)).toBe(rowHeightFor('list', 1200, 1));
    expect(rowHeightFor('mosaic', 400, 1)).toBe(rowHeightFor('mosaic', 1200, 4));
  });

  it.each([
    [358, 1, 269 + 76],
    [1000, 3, 246 + 76],
    [1000, 2, 372 + 76],
  ])('makes a %i px gallery of %i columns rows of %i px: a 4:3 picture above the text', (width, columns, height) => {
    expect(rowHeightFor('mosaic gallery', width, columns)).toBe(height);
  });
});
