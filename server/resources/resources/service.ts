import type { Readable } from 'node:stream';
import type { UserRecord } from '../../state/schema';
import type { ResourcesDeps } from './context';
import { createResource, deleteResource, saveResource, type CreateRequest } from './mutate';
import { patchResource, type PatchRequest } from './patch';
import { getResource, recursiveListing, type GetRequest } from './read';

export type { ResourcesDeps } from './context';
export type { GetResult } from './read';

/** The decisions of /api/resources (api.md §3.4-§3.9); routes.ts only translates HTTP. */
export function createResourcesService(deps: ResourcesDeps) {
  return {
    /** GET: listing, file info, checksum, or raw bytes for X-Encoding. */
    get: (user: UserRecord, req: GetRequest) => getResource(deps, user, req),
    /** GET recursive: the flat listing, or null when the client went away. */
    recursive: (user: UserRecord, req: { raw: string; signal: AbortSignal }) => recursiveListing(deps, user, req),
    /** POST: a directory (trailing '/') or a file from the body; the file's ETag. */
    create: (user: UserRecord, req: CreateRequest) => createResource(deps, user, req),
    /** PUT: replaces an existing file; its ETag. */
    save: (user: UserRecord, req: { raw: string; body: Readable; length?: number | null }) => saveResource(deps, user, req),
    /** DELETE: moves a file or tree into the trash (or removes it: `permanent`, trash off) and drops the user's shares below it. */
    remove: (user: UserRecord, raw: string, permanent = false) => deleteResource(deps, user, { raw, permanent }),
    /** PATCH: copy or move. */
    patch: (user: UserRecord, req: PatchRequest) => patchResource(deps, user, req),
  };
}

export type ResourcesService = ReturnType<typeof createResourcesService>;
