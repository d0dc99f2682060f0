import type { CreatedTokenView, NewTokenBody, TokenView } from '@contract/tokens';
import { atom } from 'jotai';
import { createToken, listTokens, revokeToken } from '../../api/tokens';

const tokensVersionAtom = atom(0);

/** The signed-in user's API tokens (beyond.md §4.1), reloaded after each change. */
export const tokensAtom = atom(async (get): Promise<TokenView[]> => {
  get(tokensVersionAtom);
  return listTokens();
});

/** Creates a token and refreshes the list; resolves with the token, shown once. */
export const createTokenAtom = atom(null, async (_get, set, body: NewTokenBody): Promise<CreatedTokenView> => {
  const created = await createToken(body);
  set(tokensVersionAtom, (v) => v + 1);
  return created;
});

/** Revokes a token and refreshes the list. */
export const revokeTokenAtom = atom(null, async (_get, set, id: string) => {
  await revokeToken(id);
  set(tokensVersionAtom, (v) => v + 1);
});
