// Diagnostic (not a benchmark): where the renderer's main thread spends a cold load of /files/,
// signed in (the HTTP cache cleared before each load): the summed time of the top-level trace
// events (script compile, evaluation, parse, style, layout, paint...) and the gaps between them
// up to the first listing option. npx tsx --tsconfig build/tsconfig.json
// scripts/bench/trace-main-thread.ts [loads], after npm run build.
import { withSignedInFiles } from './signed-in-files';

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tid: number; pid: number; args?: { name?: string; data?: { url?: string } } }

const loads = Number(process.argv[2] ?? 3);
await withSignedInFiles(async (page, origin, cdp) => {
  for (let run = 0; run < loads; run++) {
    await cdp.send('Network.clearBrowserCache');
    const events: TraceEvent[] = [];
    const collect = (e: { value: object[] }): void => void events.push(...(e.value as TraceEvent[]));
    cdp.on('Tracing.dataCollected', collect);
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,v8,blink.user_timing,loading,__metadata', transferMode: 'ReportEvents' });
    const t0 = Date.now();
    await page.goto(`${origin}/files/`, { waitUntil: 'commit' });
    await page.waitForSelector('[role="option"]');
    const wall = Date.now() - t0;
    const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', collect);
    const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((x) => x.pid === e.pid && x.name === 'ParseHTML'));
    const onMain = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && (e.dur ?? 0) > 0).sort((a, b) => a.ts - b.ts);
    const nav = events.find((e) => e.name === 'navigationStart' && main && e.pid === main.pid) ?? onMain[0];
    const start = nav?.ts ?? 0;
    // Top-level events only: skip those inside the previous top-level one.
    const top: TraceEvent[] = [];
    for (const e of onMain) {
      const last = top[top.length - 1];
      if (e.ts < start) continue;
      if (last && e.ts < last.ts + (last.dur ?? 0)) continue;
      top.push(e);
    }
    const byName = new Map<string, number>();
    for (const e of top) byName.set(e.name, (byName.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
    const busy = [...byName.values()].reduce((a, b) => a + b, 0);
    const inner = new Map<string, number>();
    for (const e of onMain) if (e.ts >= start && /Compile|Evaluate|Parse|Layout|Paint|Style/.test(e.name)) inner.set(e.name, (inner.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
    console.log(`--- load ${run}: ${wall} ms wall, main thread busy ${busy.toFixed(0)} ms`);
    for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`  top ${name.padEnd(28)} ${ms.toFixed(1)} ms`);
    for (const [name, ms] of [...inner].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  all ${name.padEnd(28)} ${ms.toFixed(1)} ms`);
  }
});
