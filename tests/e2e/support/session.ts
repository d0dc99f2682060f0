import type { Page } from 'playwright-core';
import type { ServerHandle } from './harness';

/** A signed-in API client for arranging and checking state around a browser test. */
export interface ApiClient {
  token: string;
  /** Sends a request with the token; resolves with the status and the body as text. */
  call: (method: string, path: string, body?: unknown) => Promise<{ status: number; text: string }>;
  /** GET of a JSON answer (throws unless 200). */
  json: <T>(path: string) => Promise<T>;
}

/** POST /api/login as `username`, then a client that sends the token in X-Auth. */
export async function apiAs(server: ServerHandle, username = server.username, password = server.password): Promise<ApiClient> {
  const response = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password, recaptcha: '' }),
  });
  if (response.status !== 200) throw new Error(`login as ${username} answered ${response.status}`);
  const token = await response.text();
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> => {
    const headers: Record<string, string> = { 'X-Auth': token };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const answer = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: answer.status, text: await answer.text() };
  };
  const json = async <T>(path: string): Promise<T> => {
    const { status, text } = await call('GET', path);
    if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${text}`);
    return JSON.parse(text) as T;
  };
  return { token, call, json };
}

/** Signs in through the login form, as a person would (as admin unless `as` says), and waits for the files screen. */
export async function signIn(page: Page, server: ServerHandle, as?: { username: string; password: string }): Promise<void> {
  const { username, password } = as ?? { username: server.username, password: server.password };
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/files\/$/);
}

/** Collects console errors and uncaught exceptions of a page, for a "no script error" check. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));
  return problems;
}
