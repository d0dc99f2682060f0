import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';
import { DEFAULT_LOCALE, findLocale, type LocaleCode, type LocaleInfo } from './locales';

/** Sets up i18next with English bundled and `code` loaded (each other locale is a lazy chunk). */
export async function initI18n(code: LocaleCode): Promise<void> {
  await i18next.use(initReactI18next).init({
    resources: { en: { translation: en } },
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    // React escapes text itself; escaping here would double-escape names like "a&b".
    interpolation: { escapeValue: false },
    // Our codes are lower case (pt-br, zh-cn); i18next would otherwise rewrite them to pt-BR.
    lowerCaseLng: true,
    load: 'currentOnly',
    // No sponsor message in the console of every visitor.
    showSupportNotice: false,
  });
  await changeLocale(code);
}

/** Loads the messages of `code` when needed, switches to it and sets `<html lang dir>`. */
export async function changeLocale(code: string): Promise<LocaleInfo> {
  const locale = findLocale(code) ?? findLocale(DEFAULT_LOCALE);
  if (!locale) throw new Error(`unknown locale ${code}`);
  if (!i18next.hasResourceBundle(locale.code, 'translation')) {
    const messages = await locale.load();
    i18next.addResourceBundle(locale.code, 'translation', messages.default);
  }
  await i18next.changeLanguage(locale.code);
  document.documentElement.lang = locale.lang;
  document.documentElement.dir = locale.dir;
  return locale;
}

/** The BCP 47 tag of the active locale, for Intl formatters. */
export function currentLang(): string {
  return findLocale(i18next.language)?.lang ?? 'en';
}
