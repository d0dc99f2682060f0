import type { RecordEntry } from '../../activity/entry';
import { isAppError } from '../../errors';
import { decodeJsonBody } from '../../lib/json-body';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import type { AuthAttempt } from './methods';

/** How each auth method signs in, as the activity log names it. */
const METHOD_WORDS: Readonly<Record<string, string>> = { json: 'password', hook: 'hook', proxy: 'proxy', noauth: 'none' };

/** A name typed by anyone: kept short in the log. */
const MAX_NAME = 256;

/** The user name a sign-in attempt claims (never its password), for the log of a failed one. */
function claimedName(store: Store, method: string, attempt: AuthAttempt): string {
  if (method === 'proxy') return attempt.header(store.data().auther.header ?? '') ?? '';
  if (method === 'noauth') return store.data().users.find((u) => u.id === 1)?.username ?? '';
  const decoded = decodeJsonBody(attempt.body);
  const value = decoded.ok ? (decoded.value as { username?: unknown } | null) : null;
  return typeof value?.username === 'string' ? value.username.slice(0, MAX_NAME) : '';
}

export interface SignInEvent {
  /** 'login' or 'signup'. */
  action: string;
  /** The auth method (settings.authMethod). */
  method: string;
  attempt: AuthAttempt;
}

/**
 * Runs a sign-in or sign-up and records its outcome in the activity log (beyond.md §8): the name
 * tried, the client address, the method and the status; failures are re-thrown unchanged.
 */
export async function recordSignIn<T extends UserRecord | void>(deps: { record?: RecordEntry | undefined; store: Store }, event: SignInEvent, run: () => Promise<T>): Promise<T> {
  const { record, store } = deps;
  if (!record) return run();
  const base = { action: event.action, address: event.attempt.address, detail: METHOD_WORDS[event.method] ?? event.method };
  try {
    const user = await run();
    record({ ...base, user: user ? user.username : claimedName(store, event.method, event.attempt), result: 'ok', status: 200 });
    return user;
  } catch (err) {
    record({ ...base, user: claimedName(store, event.method, event.attempt), result: 'failed', status: isAppError(err) ? err.status : 500 });
    throw err;
  }
}
