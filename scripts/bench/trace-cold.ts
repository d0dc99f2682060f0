// Diagnostic (not a benchmark): the network timeline of three cold loads of /files/, signed in
// (start, first byte and end of each request, ms from navigation start), to find the waits in
// sequence. npx tsx --tsconfig build/tsconfig.json scripts/bench/trace-cold.ts, after npm run build.
import { withSignedInFiles } from './signed-in-files';

await withSignedInFiles(async (page, origin, cdp) => {
  await page.waitForLoadState('networkidle');
  for (let run = 0; run < 3; run++) {
    await cdp.send('Network.clearBrowserCache');
    await page.goto(`${origin}/files/`, { waitUntil: 'commit' });
    await page.waitForSelector('[role="option"]');
    await page.waitForLoadState('networkidle');
    const rows = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const out = [`nav resp ${nav.responseStart.toFixed(0)}-${nav.responseEnd.toFixed(0)} dcl ${nav.domContentLoadedEventEnd.toFixed(0)} load ${nav.loadEventEnd.toFixed(0)}`];
      for (const r of res) out.push(`${r.startTime.toFixed(0).padStart(5)} ${r.responseStart.toFixed(0).padStart(5)} ${r.responseEnd.toFixed(0).padStart(5)} ${r.initiatorType.padEnd(8)} ${r.name.replace(location.origin, '')}`);
      return out;
    });
    console.log(`--- run ${run}\n${rows.join('\n')}`);
  }
});
