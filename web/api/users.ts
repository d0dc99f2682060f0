import { apiPaths } from '../paths';
import { jsonBody, request } from './http';
import type { TokenUser } from './types';

/** PUT /api/users/{id} with the named fields only (api.md §3.2: what, which, data). */
export async function updateUser(id: number, which: readonly (keyof TokenUser)[], data: Partial<TokenUser>): Promise<void> {
  await request(apiPaths.user(id), jsonBody({ what: 'user', which, data: { ...data, id } }, 'PUT'));
}
