// A test app served on a free port in its own process, for the benchmarks (scripts/bench/upload.ts
// spawns it by path, so no script imports tests/): prints `{port, root, token}` and serves until SIGTERM.
import type { AddressInfo } from 'node:net';
import type { ServerConfig } from '../../server/config';
import { buildTestApp } from './test-app';

async function serve(json: string): Promise<void> {
  const t = await buildTestApp({ config: JSON.parse(json) as Partial<ServerConfig> });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ port, root: t.root, token: t.token() })}\n`);
  process.once('SIGTERM', () => void t.close().then(() => process.exit(0)));
}

serve(process.argv[2] ?? '{}').catch((err: unknown) => {
  console.error(`test app failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
