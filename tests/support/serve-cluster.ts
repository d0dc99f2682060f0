// Three filemgr nodes behind nginx on one PostgreSQL (cluster.ts), for the several-instances bench
// (scripts/bench/cluster.ts spawns this by path, so no script imports tests/): writes the tree the
// bench names, prints `{url, nodes, username, password}` and serves until SIGTERM, then stops all.
import { randomBytes } from 'node:crypto';
import { startCluster } from './cluster';
import type { Tree } from './tree';

async function serve(json: string): Promise<void> {
  const spec = JSON.parse(json) as { listing: number };
  const tree: Tree = { 'one.bin': randomBytes(2 ** 20), 'notes.txt': 'A line of notes.\n'.repeat(500) };
  for (let i = 0; i < spec.listing; i++) tree[`list/entry-${i}.txt`] = `entry ${i}\n`;
  const cluster = await startCluster({ tree });
  process.stdout.write(`${JSON.stringify({ url: cluster.url, nodes: cluster.nodes.map((n) => n.url), username: cluster.username, password: cluster.password })}\n`);
  process.once('SIGTERM', () => void cluster.stop().then(() => process.exit(0)));
}

serve(process.argv[2] ?? '{"listing":2000}').catch((err: unknown) => {
  console.error(`cluster failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
