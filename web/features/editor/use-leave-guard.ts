import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Where a held-back departure was going: a link clicked, a history step, or a path of ours. */
type Departure = { kind: 'link'; link: HTMLAnchorElement } | { kind: 'history'; go: () => void } | { kind: 'path'; to: string };

/** The parts of the Navigation API (not yet in TypeScript's DOM types) used here. */
interface NavigationLike extends EventTarget {
  traverseTo: (key: string) => unknown;
}
interface NavigateEventLike extends Event {
  navigationType: string;
  destination: { key: string; url: string; sameDocument: boolean };
  downloadRequest: string | null;
}

function navigationApi(): NavigationLike | undefined {
  return (window as unknown as { navigation?: NavigationLike }).navigation;
}

/** How to take a navigation inside the app after all, when it is one to hold back; else null. */
function heldStep(step: NavigateEventLike, navigation: NavigationLike): (() => void) | null {
  if (!step.cancelable || !step.destination.sameDocument || step.downloadRequest !== null) return null;
  const { key, url } = step.destination;
  // Back and forward: cancelled before the address changes, so the router never leaves the editor.
  if (step.navigationType === 'traverse') return () => void navigation.traverseTo(key);
  // The app's own moves (buttons, search results): the router's pushState, made again on Discard.
  if (step.navigationType === 'push') return () => history.pushState(null, '', url);
  return null;
}

/** A click the browser or the router would turn into leaving the page for another in the app. */
function leavingLink(event: MouseEvent): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return null;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute('download') || (link.target && link.target !== '_self')) return null;
  const to = new URL(link.href, location.href);
  return to.origin === location.origin && to.href !== location.href ? link : null;
}

/** The listeners that catch leaving: in-app links, back and forward, closing the tab. */
function useLeaveListeners(holds: () => boolean, hold: (departure: Departure) => void): void {
  const latest = useRef({ holds, hold });
  useLayoutEffect(() => {
    latest.current = { holds, hold };
  });
  useEffect(() => {
    const here = location.href;
    const onClick = (event: MouseEvent): void => {
      const link = leavingLink(event);
      if (!link || !latest.current.holds()) return;
      event.preventDefault();
      event.stopPropagation();
      latest.current.hold({ kind: 'link', link });
    };
    const navigation = navigationApi();
    const onNavigate = (event: Event): void => {
      const go = navigation && heldStep(event as NavigateEventLike, navigation);
      if (!go || !latest.current.holds()) return;
      event.preventDefault();
      latest.current.hold({ kind: 'history', go });
    };
    // Without it: a capture listener runs before the router's; the address is put back while asking.
    const onPopState = (event: PopStateEvent): void => {
      if (!latest.current.holds()) return;
      event.stopImmediatePropagation();
      history.pushState(history.state, '', here);
      latest.current.hold({ kind: 'history', go: () => history.back() });
    };
    const onBeforeUnload = (event: BeforeUnloadEvent): void => {
      if (latest.current.holds()) event.preventDefault();
    };
    document.addEventListener('click', onClick, true);
    if (navigation) navigation.addEventListener('navigate', onNavigate);
    else window.addEventListener('popstate', onPopState, true);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      navigation?.removeEventListener('navigate', onNavigate);
      window.removeEventListener('popstate', onPopState, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, []);
}

/**
 * Holds back leaving the page while `isDirty()` says there are unsaved changes: links inside the
 * app (breadcrumbs, sidebar), the browser's back and forward, and `leave(to)` wait for `discard`
 * or `stay`; closing or reloading the tab gets the browser's own beforeunload warning.
 */
export function useLeaveGuard(isDirty: () => boolean, navigate: (to: string) => void) {
  const [pending, setPending] = useState<Departure | null>(null);
  const allowed = useRef(false);
  const latest = useRef({ isDirty, navigate });
  useLayoutEffect(() => {
    latest.current = { isDirty, navigate };
  });
  const holds = (): boolean => !allowed.current && latest.current.isDirty();

  useLeaveListeners(holds, setPending);

  const go = (departure: Departure): void => {
    allowed.current = true;
    if (departure.kind === 'link') departure.link.click();
    else if (departure.kind === 'history') departure.go();
    else latest.current.navigate(departure.to);
  };

  return {
    /** A departure waits for an answer: the "Discard changes?" dialog is open. */
    asking: pending !== null,
    leave: (to: string): void => {
      if (holds()) setPending({ kind: 'path', to });
      else go({ kind: 'path', to });
    },
    discard: (): void => {
      if (pending) go(pending);
      setPending(null);
    },
    stay: (): void => setPending(null),
  };
}
