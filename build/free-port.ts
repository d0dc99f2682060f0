import { createServer, type AddressInfo } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (the build's warm-up, benchmarks, tests). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}
