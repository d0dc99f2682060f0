import { describe, expect, it } from 'vitest';
import { isMarkdown, renderMarkdown } from './markdown';

describe('isMarkdown', () => {
  it.each([['README.md', true], ['notes.MARKDOWN', true], ['a.mkd', true], ['md', false], ['a.txt', false], ['a.md.txt', false]])('%s: %s', (name, expected) => {
    expect(isMarkdown(name)).toBe(expected);
  });
});

describe('renderMarkdown', () => {
  it('renders CommonMark and GFM tables and task lists', async () => {
    const html = await renderMarkdown('# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<td>1</td>');
    expect(html).toContain('type="checkbox"');
  });

  it('escapes raw HTML and drops unsafe link targets', async () => {
    const html = await renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1)) [y](https://example.com)');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="https://example.com"');
  });
});
