import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { usePathname } from 'wouter/use-browser-location';
import { instanceName, pageTitle } from '../../lib/page-config';
import { resourcePathFromLocation } from '../../paths';
import { configAtom } from '../../state/config';
import { showPromptAtom } from '../../state/prompts';
import { clearRequestAtom, loadResourceAtom, reloadAtom, requestAtom } from '../../state/request';

/**
 * Keeps requestAtom on the route's path: fetches on every path change and reload, clears the
 * request state on leaving, titles the page with the item's name and opens help on F1.
 */
export function useFilesRequest() {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  // The raw pathname, decoded segment by segment: names may hold '#', '?' or '%'.
  const path = resourcePathFromLocation(usePathname(), config.BaseURL);
  const request = useAtomValue(requestAtom);
  const reload = useAtomValue(reloadAtom);
  const load = useSetAtom(loadResourceAtom);
  const clear = useSetAtom(clearRequestAtom);
  const showPrompt = useSetAtom(showPromptAtom);

  useEffect(() => {
    void load(path);
  }, [path, reload, load]);
  useEffect(() => () => clear(), [clear]);

  const name = request.path === path ? (request.resource?.name ?? '') : '';
  useEffect(() => {
    document.title = pageTitle([name, t('titles.files')], instanceName(config));
  }, [name, t, config]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'F1') return;
      event.preventDefault();
      showPrompt({ kind: 'help' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [showPrompt]);

  return { path, request: request.path === path ? request : null };
}
