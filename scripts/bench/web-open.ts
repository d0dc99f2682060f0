// U1: the first open of each lazy screen, from a click to the screen painted, on a page loaded
// fresh (its chunks not yet run) and left to settle (network idle, then an idle callback), as a
// person would read the page before clicking. The baseline: the same screen opened again in the
// same page (its code already there), which is what the screen itself costs to render.
import type { Locator, Page } from 'playwright-core';
import { median, type Figure } from './measure';

const RUNS = 3;
const FILES_READY = '[role="option"]';
const SETTINGS_READY = 'a.tab[aria-current="page"]';

interface Screen {
  label: string;
  /** The page the click is made on, and what says it is ready. */
  from: { path: string; ready: string };
  trigger: (page: Page) => Locator;
  /** A double click (opening a file) rather than a click. */
  double?: boolean;
  /** What is there once the screen is on screen. */
  shown: string;
  /** Back to `from`, for the second open. */
  close: 'escape' | 'back';
}

const button = (name: string) => (page: Page) => page.getByRole('button', { name, exact: true }).first();
const tab = (name: string) => (page: Page) => page.locator(`a.tab[href$="/settings/${name}"]`);
// A settings tab is on screen once it is the current tab and its cards hold no spinner (its data is there).
const tabShown = (name: string): string => `.settings:has(a.tab[aria-current="page"][href$="/settings/${name}"]):not(:has(.spinner)) .settings-cards`;
const FILES = { path: '/files/', ready: FILES_READY };
const PROFILE = { path: '/settings/profile', ready: SETTINGS_READY };

const SCREENS: readonly Screen[] = [
  { label: 'search', from: FILES, trigger: button('Search'), shown: 'dialog.search-overlay[open]', close: 'escape' },
  { label: 'help dialog', from: FILES, trigger: button('Help'), shown: 'dialog.dialog[open]', close: 'escape' },
  { label: 'new folder dialog', from: FILES, trigger: button('New folder'), shown: 'dialog.dialog[open]', close: 'escape' },
  { label: 'info dialog', from: FILES, trigger: button('Info'), shown: 'dialog.dialog[open]', close: 'escape' },
  {
    label: 'editor (notes.txt)', from: FILES, trigger: (page) => page.locator('[role="option"][data-path="/notes.txt"]'),
    double: true, shown: '.cm-editor', close: 'back',
  },
  { label: 'settings (profile)', from: FILES, trigger: (page) => page.getByRole('link', { name: 'Settings', exact: true }), shown: tabShown('profile'), close: 'back' },
  { label: 'settings tab shares', from: PROFILE, trigger: tab('shares'), shown: tabShown('shares'), close: 'back' },
  { label: 'settings tab global', from: PROFILE, trigger: tab('global'), shown: tabShown('global'), close: 'back' },
  { label: 'settings tab users', from: PROFILE, trigger: tab('users'), shown: tabShown('users'), close: 'back' },
];

/** In the page: clicks `trigger` and answers the milliseconds until `shown` is there and painted. */
function timeOpen(trigger: Locator, shown: string, double: boolean): Promise<number> {
  return trigger.evaluate(async (el, { selector, dbl }) => {
    const start = performance.now();
    if (dbl) el.dispatchEvent(new MouseEvent('dblclick', { bubbles: true, cancelable: true }));
    else (el as HTMLElement).click();
    await new Promise<void>((resolve) => {
      if (document.querySelector(selector)) return resolve();
      const observer = new MutationObserver(() => {
        if (!document.querySelector(selector)) return;
        observer.disconnect();
        resolve();
      });
      observer.observe(document, { childList: true, subtree: true, attributes: true });
    });
    return (await new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())))) - start;
  }, { selector: shown, dbl: double });
}

/** A fresh load of `from`, left until the network is idle and the browser has an idle moment. */
async function settle(page: Page, origin: string, from: Screen['from']): Promise<void> {
  await page.goto(`${origin}${from.path}`);
  await page.waitForSelector(from.ready);
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise((r) => requestIdleCallback(r)));
}

async function close(page: Page, screen: Screen): Promise<void> {
  if (screen.close === 'escape') {
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog[open]', { state: 'detached' });
  } else {
    await page.goBack();
    await page.waitForSelector(screen.from.ready);
  }
}

/** The first and the second open of every screen, RUNS times each on a fresh page. */
export async function firstOpens(page: Page, origin: string, log: (line: string) => void): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const screen of SCREENS) {
    const first: number[] = [];
    const again: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await settle(page, origin, screen.from);
      first.push(await timeOpen(screen.trigger(page), screen.shown, screen.double ?? false));
      await close(page, screen);
      again.push(await timeOpen(screen.trigger(page), screen.shown, screen.double ?? false));
    }
    log(`  ${screen.label}: first ${first.map((v) => v.toFixed(0)).join(' ')} ms, again ${again.map((v) => v.toFixed(0)).join(' ')} ms`);
    figures.push({
      label: `first open: ${screen.label}`,
      value: median(first),
      unit: 'ms',
      baseline: { label: 'opened again', value: median(again) },
    });
  }
  return figures;
}
