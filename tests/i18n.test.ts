import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../web/i18n/locales';

// Locale parity (ARCHITECTURE.md, i18n): every locale has exactly en.json's keys, each with the
// same {{placeholders}}, a non-empty text, and locales.ts lists exactly the files present.

const dir = fileURLToPath(new URL('../web/i18n/locales/', import.meta.url));
type Tree = { [key: string]: string | Tree };

function load(code: string): Tree {
  return JSON.parse(readFileSync(`${dir}${code}.json`, 'utf8')) as Tree;
}

function flatten(tree: Tree, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'object' && value !== null) {
      for (const [k, v] of flatten(value, path)) out.set(k, v);
    } else out.set(path, value);
  }
  return out;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
}

const en = flatten(load('en'));
const others = LOCALES.map((l) => l.code).filter((code) => code !== 'en');

describe('locale files', () => {
  it('are exactly the locales listed in locales.ts', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
    expect(files).toEqual(LOCALES.map((l) => l.code).sort());
  });

  it('en.json holds only non-empty strings, nested by feature', () => {
    for (const [key, value] of en) {
      expect(typeof value, key).toBe('string');
      expect((value as string).trim(), key).not.toBe('');
      expect(key.split('.').length, key).toBeGreaterThanOrEqual(2);
    }
  });

  it.each(others)('%s has every key of en.json and no other', (code) => {
    const keys = [...flatten(load(code)).keys()].sort();
    const missing = [...en.keys()].filter((k) => !keys.includes(k));
    const extra = keys.filter((k) => !en.has(k));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it.each(others)('%s uses the same placeholders as en.json in every text', (code) => {
    const texts = flatten(load(code));
    for (const [key, source] of en) {
      const text = texts.get(key);
      expect(typeof text, `${code} ${key}`).toBe('string');
      expect((text as string).trim(), `${code} ${key}`).not.toBe('');
      expect(placeholders(text as string), `${code} ${key}`).toEqual(placeholders(source as string));
    }
  });

  it.each(others)('%s is translated, not a copy of English', (code) => {
    const texts = flatten(load(code));
    const copied = [...en].filter(([key, source]) => texts.get(key) === source && /[a-z]{4,}/i.test(source as string));
    // A few words are the same in some languages (e.g. "Menu", "Name"); a copied file is not.
    expect(copied.length, copied.map(([k]) => k).join(', ')).toBeLessThanOrEqual(Math.ceil(en.size * 0.1));
  });
});
