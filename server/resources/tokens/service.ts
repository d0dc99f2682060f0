import type { CreatedTokenView, NewTokenBody, TokenView } from '../../contract/tokens';
import { createApiToken, listApiTokens, revokeApiToken } from '../../accounts/api-tokens';
import { AppError } from '../../errors';
import type { ApiTokenRecord, UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';

export interface TokensServiceDeps {
  store: Store;
  now?: () => number;
}

export interface TokensService {
  /** The caller's tokens, oldest first (never a secret or a hash). */
  list(caller: UserRecord): TokenView[];
  /** A new token for the caller, with at most the caller's rights; the token is in this answer only. */
  create(caller: UserRecord, body: NewTokenBody): Promise<CreatedTokenView>;
  /** Revokes one of the caller's tokens (404 when it is not theirs). */
  revoke(caller: UserRecord, id: string): Promise<void>;
  /** An admin lists user `userId`'s tokens (404 when the user does not exist). */
  listFor(userId: number): TokenView[];
  /** An admin revokes token `id` of user `userId`. */
  revokeFor(userId: number, id: string): Promise<void>;
}

const iso = (ms: number): string | null => (ms > 0 ? new Date(ms).toISOString() : null);

/** The wire form of a token record. */
export function tokenView(t: ApiTokenRecord): TokenView {
  return { id: t.id, name: t.name, created: new Date(t.created).toISOString(), expires: iso(t.expires), lastUsed: iso(t.lastUsed), perm: { ...t.perm } };
}

/** API tokens (beyond.md §4.1): one's own, and any user's for an admin. */
export function createTokensService(deps: TokensServiceDeps): TokensService {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const assertUser = (userId: number): void => {
    if (!store.data().users.some((u) => u.id === userId)) throw new AppError('not_found');
  };
  return {
    list: (caller) => listApiTokens(store.data(), caller.id).map(tokenView),
    async create(caller, body) {
      const req = { name: body.name, expiresInDays: body.expiresInDays ?? 0, perm: body.perm, nowMs: now() };
      const { record, token } = await createApiToken(store, { id: caller.id, perm: caller.perm }, req);
      const view = tokenView(record);
      return { id: view.id, name: view.name, token, created: view.created, expires: view.expires, lastUsed: view.lastUsed, perm: view.perm };
    },
    revoke: (caller, id) => revokeApiToken(store, caller.id, id),
    listFor(userId) {
      assertUser(userId);
      return listApiTokens(store.data(), userId).map(tokenView);
    },
    revokeFor: (userId, id) => revokeApiToken(store, userId, id),
  };
}
