import type { Server } from 'node:http';
import type { Socket } from 'node:net';

// Node's closeIdleConnections() leaves alone a connection that has not sent a byte: it counts as
// a request whose headers are still to come. Browsers open such connections ahead of need
// (Chromium preconnects one for a request it is about to send), and server.close() then waited
// for the whole grace period of a shutdown with nothing in flight.

const accepted = new WeakMap<Server, Set<Socket>>();

/**
 * Remembers the connections `server` accepts, for `closeSilentConnections`. The socket the HTTP
 * parser reads is the one tracked: the TLS socket under https (its bytesRead counts plain text,
 * so a finished handshake alone is still silent), the TCP socket otherwise.
 */
export function trackConnections(server: Server): void {
  if (accepted.has(server)) return;
  const sockets = new Set<Socket>();
  accepted.set(server, sockets);
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  server.on('connection', track);
  server.on('secureConnection', track);
}

/** Closes the connections of `server` that have not sent a byte of a request. */
export function closeSilentConnections(server: Server): void {
  for (const socket of accepted.get(server) ?? []) {
    if (socket.bytesRead === 0) socket.destroy();
  }
}
