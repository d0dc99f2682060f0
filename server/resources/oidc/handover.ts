import { randomBytes } from 'node:crypto';
import type { Ephemeral } from '../../state/ephemeral';

/**
 * How the callback hands filemgr's token to the web app (beyond.md §4.3): not the token itself
 * in a URL, but a one-time code in the URL fragment (never sent to a server, so never in a log
 * or a Referer), which the app redeems once with POST /api/auth/oidc/token and removes from the
 * address bar. Kept in the shared-ephemeral store, so any instance redeems it once.
 */
export interface SignInHandover {
  /** A fresh code for `token`, valid `HANDOVER_TTL_MS`. */
  issue(token: string): Promise<string>;
  /** The token of `code`, once: a second redeem, an unknown or an expired code is undefined. */
  redeem(code: string): Promise<string | undefined>;
}

export const HANDOVER_TTL_MS = 60_000;

const keyOf = (code: string): string => `oidc:handover:${code}`;

/** The hand-over on top of the shared-ephemeral store (a record with an expiry, taken under a lock). */
export function ephemeralHandover(ephemeral: Ephemeral): SignInHandover {
  return {
    async issue(token) {
      const code = randomBytes(32).toString('base64url');
      await ephemeral.put(keyOf(code), token, HANDOVER_TTL_MS);
      return code;
    },
    redeem(code) {
      if (!/^[A-Za-z0-9_-]{43}$/.test(code)) return Promise.resolve(undefined);
      return ephemeral.withLock(keyOf(code), async () => {
        const token = await ephemeral.get<string>(keyOf(code));
        if (token !== undefined) await ephemeral.delete(keyOf(code));
        return token;
      });
    },
  };
}

/** Marks the flow `state` as used; false when it already was (a replayed callback). */
export function markFlowUsed(ephemeral: Ephemeral, state: string, ttlMs: number): Promise<boolean> {
  const key = `oidc:used:${state}`;
  return ephemeral.withLock(key, async () => {
    if ((await ephemeral.get<boolean>(key)) !== undefined) return false;
    await ephemeral.put(key, true, ttlMs);
    return true;
  });
}
