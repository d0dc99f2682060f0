import { request } from './http';

/** GET of a file's bytes (a raw download or a preview URL, without the base URL). */
export async function getBytes(path: string): Promise<ArrayBuffer> {
  return (await request(path)).arrayBuffer();
}

/** GET of a file's content as text. */
export async function getText(path: string): Promise<string> {
  return (await request(path)).text();
}
