import type { UserDeleteBody, UserEnvelope, UserInput, UserView } from '@contract/user';
import { apiPaths } from '../paths';
import { fetchJson, jsonBody, request, exchange } from './http';

/** GET /api/users: every user (admin only). */
export async function listUsers(): Promise<UserView[]> {
  return fetchJson<UserView[]>(apiPaths.users);
}

/** GET /api/users/{id}. */
export async function getUser(id: number): Promise<UserView> {
  return fetchJson<UserView>(apiPaths.user(id));
}

/**
 * POST /api/users: creates the user; resolves with the new id read from the Location header.
 * `currentPassword` is the caller's own password, which json auth asks for (api.md §3.2).
 */
export async function createUser(data: UserInput, currentPassword: string): Promise<number> {
  const body: UserEnvelope = { what: 'user', which: [], current_password: currentPassword, data };
  const response = await request(apiPaths.users, jsonBody(body));
  const id = Number(/(\d+)\/?$/.exec(response.headers.get('Location') ?? '')?.[1]);
  if (!Number.isInteger(id)) throw new Error('the server did not say where the new user is');
  return id;
}

export interface UserUpdate {
  id: number;
  /** The fields to write; ['all'] replaces the whole record (admins only). */
  which: readonly string[];
  data: UserInput;
  /** The caller's own password, needed for sensitive fields under json auth. */
  currentPassword?: string;
}

/** PUT /api/users/{id} with the named fields only (api.md §3.2: what, which, data). */
export async function updateUser(update: UserUpdate): Promise<void> {
  const { id, which, data, currentPassword = '' } = update;
  const body: UserEnvelope = { what: 'user', which: [...which], current_password: currentPassword, data: { ...data, id } };
  await exchange(apiPaths.user(id), jsonBody(body, 'PUT'));
}

/** DELETE /api/users/{id}, confirmed with the caller's own password. */
export async function deleteUser(id: number, currentPassword: string): Promise<void> {
  await exchange(apiPaths.user(id), jsonBody({ current_password: currentPassword } satisfies UserDeleteBody, 'DELETE'));
}
