import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { userAtom } from '../state/session';
import { changeLocale } from '.';
import { resolveLocale } from './locales';

/** Follows the signed-in user's locale, else the browser's, setting `<html lang dir>` too. */
export function useLocaleSync(): void {
  const locale = useAtomValue(userAtom)?.locale;
  useEffect(() => {
    void changeLocale(resolveLocale(locale, navigator.languages));
  }, [locale]);
}
