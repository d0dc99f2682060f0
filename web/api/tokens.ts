import type { CreatedTokenView, NewTokenBody, TokenView } from '@contract/tokens';
import { apiPaths } from '../paths';
import { exchange, fetchJson, jsonBody } from './http';

/** GET /api/tokens: the caller's API tokens (beyond.md §4.1). */
export async function listTokens(): Promise<TokenView[]> {
  return fetchJson<TokenView[]>(apiPaths.tokens);
}

/** POST /api/tokens: a new token; its secret is in this answer only. */
export async function createToken(body: NewTokenBody): Promise<CreatedTokenView> {
  return fetchJson<CreatedTokenView>(apiPaths.tokens, jsonBody(body));
}

/** DELETE /api/tokens/{id}: revokes one of the caller's tokens. */
export async function revokeToken(id: string): Promise<void> {
  await exchange(apiPaths.token(id), { method: 'DELETE' });
}
