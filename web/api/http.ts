// The one fetch wrapper: base URL, the X-Auth header, renewal and 401 handling (api.md §2).

/** A non-2xx answer, or status 0 when the server could not be reached at all. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    /** The answer's headers (e.g. `X-Filemgr-Otp: required` on a login, beyond.md §4.2). */
    readonly headers?: Headers,
  ) {
    super(status === 0 ? '000 No connection' : body.trim() || `${status}`);
    this.name = 'HttpError';
  }
}

export interface HttpHooks {
  baseURL: string;
  /** The current token, '' when signed out. */
  token: () => string;
  /** A signed-in call answered 401: the session is over. */
  onUnauthorized: () => void;
  /** The server asked for a fresh token (`X-Renew-Token: true`). */
  onRenewRequested: () => void;
}

let hooks: HttpHooks = {
  baseURL: '',
  token: () => '',
  onUnauthorized: () => undefined,
  onRenewRequested: () => undefined,
};

/** Installs the base URL and the session callbacks; called once at start-up. */
export function configureHttp(next: HttpHooks): void {
  hooks = next;
}

/** The session's token, for requests that cannot go through fetch (upload progress needs XHR, tus). */
export function currentToken(): string {
  return hooks.token();
}

/** An upload made outside request() answered 401: the session ends as request() would end it. */
export function sessionRejected(): void {
  hooks.onUnauthorized();
}

/** The API URL with the base URL in front, for links the browser follows itself. */
export function apiUrl(path: string): string {
  return `${hooks.baseURL}${path}`;
}

async function send(path: string, init: RequestInit, token: string): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token) headers.set('X-Auth', token);
  try {
    return await fetch(apiUrl(path), { ...init, headers });
  } catch {
    throw new HttpError(0, '');
  }
}

/**
 * Sends a request with the session's token; resolves with a 2xx response, throws HttpError
 * otherwise. A 401 on a call that carried a token ends the session.
 */
export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const token = hooks.token();
  const response = await send(path, init, token);
  if (response.headers.get('X-Renew-Token') === 'true') hooks.onRenewRequested();
  if (response.ok) return response;
  const body = await response.text().catch(() => '');
  if (response.status === 401 && token) hooks.onUnauthorized();
  throw new HttpError(response.status, body, response.headers);
}

/**
 * A request whose answer does not matter beyond its status ("200 OK"): the body is read to the
 * end, so the browser counts the request as finished (an unread body keeps it open).
 */
export async function exchange(path: string, init?: RequestInit): Promise<void> {
  await (await request(path, init)).text();
}

/** A request whose answer is text (tokens, status lines). */
export async function fetchText(path: string, init?: RequestInit): Promise<string> {
  return (await request(path, init)).text();
}

/** A request whose answer is binary (a file's bytes for a viewer that decodes them itself). */
export async function fetchBytes(path: string, init?: RequestInit): Promise<ArrayBuffer> {
  return (await request(path, init)).arrayBuffer();
}

/** A request whose answer is JSON of the given wire type. */
export async function fetchJson<T>(path: string, init?: RequestInit): Promise<T> {
  return (await (await request(path, init)).json()) as T;
}

/** The most text `fetchJsonAsItArrives` shows its watcher: a start that says nothing by then never will. */
const WATCHED_TEXT = 1 << 20;

/**
 * A JSON request read as it arrives: after each piece, `watch` sees all the text received so far,
 * until it returns true (it has what it wanted) or the text passes 1 MiB; resolves with the whole
 * value. A connection lost midway is an HttpError with status 0, as one lost before the answer.
 */
export async function fetchJsonAsItArrives<T>(path: string, watch: (received: string) => boolean): Promise<T> {
  const response = await request(path);
  if (!response.body) return (await response.json()) as T;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parts: string[] = [];
  let received = '';
  let watching = true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      if (!watching) continue;
      received += value;
      watching = !watch(received) && received.length < WATCHED_TEXT;
    }
  } catch {
    throw new HttpError(0, '');
  }
  return JSON.parse(parts.join('')) as T;
}

/**
 * A JSON request of the public share routes, never with the session's token: a 401 there asks for
 * the link's password (api.md §3.16) and must not end the visitor's own session.
 */
export async function fetchPublicJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await send(path, init, '');
  if (!response.ok) throw new HttpError(response.status, await response.text().catch(() => ''));
  return (await response.json()) as T;
}

/** A JSON body with its content type. */
export function jsonBody(data: unknown, method = 'POST'): RequestInit {
  return { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(data) };
}
