import type en from './locales/en.json';

/** The translation resource shape: en.json is the source of truth for every key. */
export type Messages = typeof en;

export type TextDirection = 'ltr' | 'rtl';

export interface LocaleInfo {
  /** The code the server stores in `user.locale` and the name of `locales/<code>.json`. */
  readonly code: string;
  /** BCP 47 tag for `<html lang>` and Intl formatters. */
  readonly lang: string;
  /** The language's own name, shown in the language picker. */
  readonly name: string;
  readonly dir: TextDirection;
  /** Loads the messages; English is bundled, every other locale is its own lazy chunk. */
  readonly load: () => Promise<{ default: Messages }>;
}

/** THE table of the 23 interface languages (product.md §1). */
export const LOCALES = [
  { code: 'he', lang: 'he', name: 'עברית', dir: 'rtl', load: () => import('./locales/he.json') },
  { code: 'hu', lang: 'hu', name: 'Magyar', dir: 'ltr', load: () => import('./locales/hu.json') },
  { code: 'ar', lang: 'ar', name: 'العربية', dir: 'rtl', load: () => import('./locales/ar.json') },
  { code: 'de', lang: 'de', name: 'Deutsch', dir: 'ltr', load: () => import('./locales/de.json') },
  { code: 'en', lang: 'en', name: 'English', dir: 'ltr', load: () => import('./locales/en.json') },
  { code: 'es', lang: 'es', name: 'Español', dir: 'ltr', load: () => import('./locales/es.json') },
  { code: 'fr', lang: 'fr', name: 'Français', dir: 'ltr', load: () => import('./locales/fr.json') },
  { code: 'is', lang: 'is', name: 'Íslenska', dir: 'ltr', load: () => import('./locales/is.json') },
  { code: 'it', lang: 'it', name: 'Italiano', dir: 'ltr', load: () => import('./locales/it.json') },
  { code: 'ja', lang: 'ja', name: '日本語', dir: 'ltr', load: () => import('./locales/ja.json') },
  { code: 'ko', lang: 'ko', name: '한국어', dir: 'ltr', load: () => import('./locales/ko.json') },
  { code: 'nl-be', lang: 'nl-BE', name: 'Nederlands (België)', dir: 'ltr', load: () => import('./locales/nl-be.json') },
  { code: 'pl', lang: 'pl', name: 'Polski', dir: 'ltr', load: () => import('./locales/pl.json') },
  { code: 'pt', lang: 'pt', name: 'Português', dir: 'ltr', load: () => import('./locales/pt.json') },
  { code: 'pt-br', lang: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr', load: () => import('./locales/pt-br.json') },
  { code: 'ro', lang: 'ro', name: 'Română', dir: 'ltr', load: () => import('./locales/ro.json') },
  { code: 'ru', lang: 'ru', name: 'Русский', dir: 'ltr', load: () => import('./locales/ru.json') },
  { code: 'sk', lang: 'sk', name: 'Slovenčina', dir: 'ltr', load: () => import('./locales/sk.json') },
  { code: 'sv-se', lang: 'sv-SE', name: 'Svenska', dir: 'ltr', load: () => import('./locales/sv-se.json') },
  { code: 'tr', lang: 'tr', name: 'Türkçe', dir: 'ltr', load: () => import('./locales/tr.json') },
  { code: 'ua', lang: 'uk', name: 'Українська', dir: 'ltr', load: () => import('./locales/ua.json') },
  { code: 'zh-cn', lang: 'zh-CN', name: '简体中文', dir: 'ltr', load: () => import('./locales/zh-cn.json') },
  { code: 'zh-tw', lang: 'zh-TW', name: '繁體中文', dir: 'ltr', load: () => import('./locales/zh-tw.json') },
] as const satisfies readonly LocaleInfo[];

export type LocaleCode = (typeof LOCALES)[number]['code'];

export const DEFAULT_LOCALE: LocaleCode = 'en';

const BY_CODE = new Map<string, LocaleInfo>(LOCALES.map((l) => [l.code, l]));

/**
 * Browser tags whose primary language maps to a locale of ours under another code, or whose
 * script/region decides between two of ours (Traditional Chinese is written in TW, HK and MO).
 */
const ALIASES: ReadonlyArray<readonly [RegExp, LocaleCode]> = [
  [/^zh-(hant|tw|hk|mo)\b/, 'zh-tw'],
  [/^zh\b/, 'zh-cn'],
  [/^pt-br\b/, 'pt-br'],
  [/^pt\b/, 'pt'],
  [/^nl\b/, 'nl-be'],
  [/^sv\b/, 'sv-se'],
  [/^uk\b/, 'ua'],
  [/^iw\b/, 'he'],
];

/** The table entry of `code`, or undefined when it is not one of the 23 locales. */
export function findLocale(code: string): LocaleInfo | undefined {
  return BY_CODE.get(code.toLowerCase());
}

function matchOne(tag: string): LocaleCode | undefined {
  const lower = tag.trim().toLowerCase().replaceAll('_', '-');
  for (const [pattern, code] of ALIASES) {
    if (pattern.test(lower)) return code;
  }
  const primary = lower.split('-')[0] ?? '';
  return LOCALES.find((l) => l.code === lower || l.code === primary)?.code;
}

/** The first of the browser's preferred languages we translate into, else English. */
export function matchBrowserLocale(languages: readonly string[]): LocaleCode {
  for (const tag of languages) {
    const code = matchOne(tag);
    if (code) return code;
  }
  return DEFAULT_LOCALE;
}

/** The signed-in user's stored locale when it is one of ours, else the browser's choice. */
export function resolveLocale(userLocale: string | undefined, languages: readonly string[]): LocaleCode {
  const own = userLocale ? findLocale(userLocale) : undefined;
  return (own?.code as LocaleCode | undefined) ?? matchBrowserLocale(languages);
}
