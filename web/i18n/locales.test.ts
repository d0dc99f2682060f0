import { describe, expect, it } from 'vitest';
import { LOCALES, findLocale, matchBrowserLocale, resolveLocale } from './locales';

describe('the locale table', () => {
  it('lists the 23 locales of product.md §1, right-to-left only for he and ar', () => {
    expect(LOCALES.map((l) => l.code).sort()).toEqual([
      'ar', 'de', 'en', 'es', 'fr', 'he', 'hu', 'is', 'it', 'ja', 'ko', 'nl-be', 'pl', 'pt', 'pt-br',
      'ro', 'ru', 'sk', 'sv-se', 'tr', 'ua', 'zh-cn', 'zh-tw',
    ]);
    expect(LOCALES.filter((l) => l.dir === 'rtl').map((l) => l.code).sort()).toEqual(['ar', 'he']);
  });

  it('gives every locale a BCP 47 tag Intl understands', () => {
    for (const locale of LOCALES) {
      expect(Intl.getCanonicalLocales(locale.lang)).toEqual([locale.lang]);
    }
  });

  it('finds entries case-insensitively', () => {
    expect(findLocale('PT-BR')?.lang).toBe('pt-BR');
    expect(findLocale('xx')).toBeUndefined();
  });
});

describe('matchBrowserLocale', () => {
  it.each([
    [['de-AT', 'en'], 'de'],
    [['en-US'], 'en'],
    [['pt-BR'], 'pt-br'],
    [['pt-PT'], 'pt'],
    [['pt'], 'pt'],
    [['zh-TW'], 'zh-tw'],
    [['zh-Hant-HK'], 'zh-tw'],
    [['zh-HK'], 'zh-tw'],
    [['zh-Hans-CN'], 'zh-cn'],
    [['zh'], 'zh-cn'],
    [['uk-UA'], 'ua'],
    [['nl'], 'nl-be'],
    [['nl-NL'], 'nl-be'],
    [['sv-FI'], 'sv-se'],
    [['iw'], 'he'],
    [['he-IL'], 'he'],
    [['ar-EG'], 'ar'],
    [['fr_CA'], 'fr'],
    [['xx', 'yy-ZZ', 'ja-JP'], 'ja'],
    [['tlh'], 'en'],
    [[], 'en'],
  ])('%j -> %s', (languages, expected) => {
    expect(matchBrowserLocale(languages)).toBe(expected);
  });
});

describe('resolveLocale', () => {
  it.each([
    ['ru', ['de'], 'ru'],
    ['zh-TW', ['de'], 'zh-tw'],
    ['', ['de'], 'de'],
    [undefined, ['ko-KR'], 'ko'],
    ['klingon', ['sk'], 'sk'],
  ])('user locale %j with browser %j -> %s', (user, languages, expected) => {
    expect(resolveLocale(user, languages)).toBe(expected);
  });
});
