import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const AXE = fileURLToPath(new URL('../../../node_modules/axe-core/axe.min.js', import.meta.url));

interface AxeResult {
  violations: { id: string; impact: string | null; nodes: { target: string[]; failureSummary?: string; html: string }[] }[];
}

/**
 * Runs axe-core on the page and returns its serious and critical violations as `rule: targets`.
 * The page's context needs `bypassCSP: true`: the app's CSP (rightly) refuses injected scripts.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResult> } }).axe;
    const result = await axe.run(document);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html} ${n.failureSummary ?? ''}`).join(', ')}`);
  });
}
