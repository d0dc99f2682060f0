import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let source: Promise<string> | undefined;

interface AxeNode {
  target: string[];
  failureSummary?: string;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** WCAG 2.1 A and AA, the level a public web app is held to. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Two findings are ui.md's contract, which scripts and screen-reader users rely on, not defects:
 * - `aria-sort` on the sort buttons themselves ("the current one carries aria-sort"), which ARIA
 *   allows only on column headers;
 * - a listing option's name is "exactly the item's name", so its visible size and date (given as
 *   its aria-describedby description) are not part of the name.
 */
function contractual(rule: string, node: AxeNode): boolean {
  const target = node.target.length === 1 ? (node.target[0] ?? '') : '';
  if (rule === 'aria-allowed-attr') return /^\.sort-(name|size|modified)$/.test(target);
  if (rule === 'label-content-name-mismatch') return /^#item-\d+$/.test(target);
  return false;
}

/**
 * Runs axe-core in the page (through the DevTools protocol, so the app's CSP does not stop it)
 * and returns one readable line per violated rule and element: "rule: help @ selector".
 */
export async function axeViolations(page: Page): Promise<string[]> {
  source ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  const script = await source;
  const violations = await page.evaluate(async ({ code, tags }) => {
    // axe-core's own bundle, evaluated in the test page only.
    if (!('axe' in window)) (0, eval)(code);
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations;
  }, { code: script, tags: TAGS });
  return (violations as AxeViolation[]).flatMap((v) => v.nodes.filter((n) => !contractual(v.id, n)).map((n) => {
    // The first reason axe gives, e.g. the two colours and the ratio of a contrast failure.
    const why = (n.failureSummary ?? '').split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('Fix ')) ?? '';
    return `${v.id} (${v.impact ?? 'n/a'}): ${v.help} @ ${n.target.join(' ')}${why ? ` (${why})` : ''}`;
  }));
}
