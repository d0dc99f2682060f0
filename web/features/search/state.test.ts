import { describe, expect, it } from 'vitest';
import { queryOf } from './state';

describe('queryOf', () => {
  it.each([
    ['report', null, 'report'],
    ['  report  ', 'pdf', 'type:pdf report'],
    ['', 'image', 'type:image'],
    ['', null, ''],
  ] as const)('%j with filter %s asks for %j', (text, filter, query) => {
    expect(queryOf(text, filter)).toBe(query);
  });
});
