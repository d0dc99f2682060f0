// `npm run build`: dist/filemgr (the single executable), dist/filemgr.cjs and dist/assets/.
import { fileURLToPath } from 'node:url';
import { executablePath, repoLayout } from './layout';
import { runBuild } from './pipeline';

const layout = repoLayout(fileURLToPath(new URL('..', import.meta.url)));

try {
  const report = await runBuild(layout);
  const mib = (report.executableBytes / 2 ** 20).toFixed(1);
  console.log(report.versions.replace(/^/gm, '  '));
  console.log(`built ${executablePath(layout)} (${mib} MiB) in ${report.totalSeconds.toFixed(1)} s`);
} catch (err) {
  console.error(`build failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
