import type { Messages } from './locales';

// en.json is the type of every key: t('typo') fails to compile.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Messages };
  }
}
