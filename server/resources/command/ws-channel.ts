import type { RawData, WebSocket } from 'ws';
import type { CommandChannel } from './service';

/** Output waiting in the socket beyond this pauses the program's output (a slow client). */
const HIGH_WATER_BYTES = 1024 * 1024;

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** Resolves with the first non-blank message; rejects when the socket fails or closes first. */
function firstLine(ws: WebSocket): Promise<string> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      ws.off('message', onMessage);
      ws.off('close', onClose);
      ws.off('error', onError);
    };
    const onMessage = (data: RawData): void => {
      const text = textOf(data).trim();
      if (text === '') return;
      cleanup();
      resolve(text);
    };
    const onClose = (): void => {
      cleanup();
      reject(new Error('the client left before sending a command'));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    ws.on('message', onMessage);
    ws.once('close', onClose);
    ws.once('error', onError);
  });
}

/**
 * Adapts a server WebSocket to the runner's channel (api.md §3.18): text messages out, in
 * order; 'failed' closes with 1011 "Internal Server Error"; 'done' drops the connection once
 * every message was written, without a close frame, as upstream does (the client sees 1006).
 */
export function wsChannel(ws: WebSocket): CommandChannel {
  const gone = new AbortController();
  ws.once('close', () => gone.abort());
  let flushed: Promise<void> = Promise.resolve();
  return {
    gone: gone.signal,
    firstLine: () => firstLine(ws),
    send(text) {
      if (ws.readyState !== ws.OPEN) return undefined;
      flushed = new Promise((resolve) => ws.send(text, () => resolve()));
      return ws.bufferedAmount > HIGH_WATER_BYTES ? flushed : undefined;
    },
    end(outcome) {
      if (ws.readyState !== ws.OPEN) return;
      if (outcome === 'failed') ws.close(1011, 'Internal Server Error');
      else void flushed.then(() => ws.terminate());
    },
  };
}
