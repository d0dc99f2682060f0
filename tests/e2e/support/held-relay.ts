// A TCP relay in front of the server that can hold back an answer from a given text on: the page
// then sees the start of a response and waits for the rest, for as long as a test needs.
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface HeldRelay {
  /** The relay's origin, to open pages at. */
  url: string;
  /** The next time the server sends `marker`, everything from it on is held back. */
  holdAt(marker: string): void;
  /** Whether something is being held back now. */
  holding(): boolean;
  /** Sends what was held back and passes everything on again. */
  release(): void;
  /** Closes the connections that have something held back, as a lost network would. */
  cut(): void;
  close(): Promise<void>;
}

interface Pipe {
  client: Socket;
  server: Socket;
  held: Buffer[] | null;
  tail: Buffer;
}

/** Starts a relay on 127.0.0.1 to the server at `target` (an http origin). */
export async function heldRelay(target: string): Promise<HeldRelay> {
  const { hostname, port } = new URL(target);
  const pipes = new Set<Pipe>();
  let marker: Buffer | null = null;

  function fromServer(pipe: Pipe, chunk: Buffer): void {
    if (pipe.held) {
      pipe.held.push(chunk);
      return;
    }
    if (marker) {
      const seen = Buffer.concat([pipe.tail, chunk]);
      const at = seen.indexOf(marker);
      if (at >= 0) {
        marker = null;
        const split = Math.max(0, at - pipe.tail.length);
        pipe.client.write(chunk.subarray(0, split));
        pipe.held = [chunk.subarray(split)];
        return;
      }
      pipe.tail = seen.subarray(Math.max(0, seen.length - marker.length + 1));
    }
    pipe.client.write(chunk);
  }

  const relay = createServer((client) => {
    const server = connect(Number(port), hostname);
    const pipe: Pipe = { client, server, held: null, tail: Buffer.alloc(0) };
    pipes.add(pipe);
    client.on('data', (chunk: Buffer) => server.write(chunk));
    server.on('data', (chunk: Buffer) => fromServer(pipe, chunk));
    const end = (): void => {
      pipes.delete(pipe);
      client.destroy();
      server.destroy();
    };
    client.on('close', end).on('error', end);
    server.on('end', () => (pipe.held ? undefined : client.end())).on('error', end);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port: relayPort } = relay.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${relayPort}`,
    holdAt(text) {
      marker = Buffer.from(text);
    },
    holding: () => [...pipes].some((p) => p.held !== null),
    release() {
      for (const pipe of pipes) {
        if (!pipe.held) continue;
        for (const chunk of pipe.held) pipe.client.write(chunk);
        pipe.held = null;
        if (pipe.server.readableEnded) pipe.client.end();
      }
    },
    cut() {
      for (const pipe of pipes) if (pipe.held) pipe.client.destroy();
    },
    async close() {
      for (const pipe of pipes) pipe.client.destroy();
      await new Promise((resolve) => relay.close(resolve));
    },
  };
}
