import { describe, expect, it } from 'vitest';
import { firstItems } from './first-items';

interface Item { name: string; path: string; size: number; subtitles?: string[] }

// Names a scanner could trip on: braces, brackets, commas, quotes and backslashes inside strings.
const TRICKY = ['a}b', 'c]d', 'e,f', 'g"h', 'i\\', '\\"}', '{[', 'ü}é', '😀,]'];

function items(count: number): Item[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `${TRICKY[i % TRICKY.length]}-${i}`;
    const item: Item = { name, path: `/dir/${name}`, size: i };
    if (i % 7 === 0) item.subtitles = [`/dir/${name}.srt`, '/dir/x}.vtt'];
    return item;
  });
}

function folderText(list: Item[]): string {
  return JSON.stringify({ items: list, numDirs: 0, numFiles: list.length, name: 'dir', isDir: true });
}

describe('firstItems', () => {
  it('waits while the text could still be a folder, and gives up on anything else', () => {
    expect(firstItems('', 5)).toEqual({ kind: 'wait' });
    expect(firstItems('{"ite', 5)).toEqual({ kind: 'wait' });
    expect(firstItems('{"items":[', 5)).toEqual({ kind: 'wait' });
    expect(firstItems('{"path":"/a.txt","name":"a.txt"}', 5)).toEqual({ kind: 'never' });
    expect(firstItems('{"name', 5)).toEqual({ kind: 'never' });
    expect(firstItems('[1,2]', 5)).toEqual({ kind: 'never' });
  });

  it('gives every complete item once `min` have arrived and another has begun, as a prefix of the whole list', () => {
    const list = items(300);
    const text = folderText(list);
    const arrayEnd = text.indexOf('],"numDirs"');
    let seenItems = 0;
    for (let cut = 0; cut <= text.length; cut += 7) {
      const result = firstItems(text.slice(0, cut), 50);
      // Once the array has ended, the whole folder is here: it is shown once, whole.
      expect(result.kind === 'never').toBe(cut > arrayEnd);
      if (result.kind !== 'items') continue;
      seenItems++;
      expect(result.count).toBeGreaterThanOrEqual(50);
      expect(JSON.parse(`[${result.json}]`)).toEqual(list.slice(0, result.count));
      // Every item with a comma after it inside the cut is there.
      let commas = 0;
      for (let at = text.indexOf(',{"name"'); at >= 0 && at < cut; at = text.indexOf(',{"name"', at + 1)) commas++;
      expect(result.count).toBe(commas);
    }
    expect(seenItems).toBeGreaterThan(100);
  });

  it('waits after the min-th item until the comma shows that another follows', () => {
    const text = folderText(items(10));
    const third = JSON.stringify(items(10).slice(0, 3)).slice(1, -1);
    const upTo = `{"items":[${third}`;
    expect(text.startsWith(upTo)).toBe(true);
    expect(firstItems(upTo, 3)).toEqual({ kind: 'wait' });
    expect(firstItems(`${upTo},`, 3)).toEqual({ kind: 'items', json: third, count: 3 });
  });

  it('never gives items when the whole list has arrived, however long it is', () => {
    for (const count of [0, 1, 49, 50]) {
      const text = folderText(items(count));
      for (let cut = 0; cut <= text.length; cut += 3) expect(firstItems(text.slice(0, cut), 50).kind).not.toBe('items');
    }
    expect(firstItems(folderText(items(80)), 100)).toEqual({ kind: 'never' });
  });

  it('gives up on text that is not the listing it expects', () => {
    expect(firstItems('{"items":[1,2,3', 1)).toEqual({ kind: 'never' });
    expect(firstItems('{"items":[{"a":1}x', 1)).toEqual({ kind: 'never' });
  });
});
