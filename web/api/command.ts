import { apiPaths } from '../paths';
import { apiUrl } from './http';

/**
 * Runs one command line in `folder` over the WebSocket of api.md §3.18 (the auth cookie signs the
 * upgrade in) and calls `onLine` for each line of output; resolves when the server closes, with
 * `ok: false` when the command failed (close code 1011).
 */
export function runCommand(folder: string, line: string, onLine: (text: string) => void): Promise<{ ok: boolean }> {
  const url = new URL(apiUrl(apiPaths.command(folder)), window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    socket.onopen = () => socket.send(line);
    socket.onmessage = (event) => onLine(String(event.data));
    socket.onclose = (event) => resolve({ ok: event.code !== 1011 });
  });
}
