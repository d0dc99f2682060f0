import { AppError } from '../../errors';
import { lstatOrNull } from '../../fs/write';
import { joinPath } from '../../fs/paths';
import type { PathGate, Target } from '../../fs/scope';
import type { HookRunner } from '../../hooks/hooks';
import type { Ephemeral } from '../../state/ephemeral';
import type { ShareCounters } from '../../state/share-counters';
import type { UploadRegistry } from '../../tus/registry';
import { openShare, type AccessDeps, type OpenShare, type PublicRequest } from './access';
import { storedName } from './upload-name';
import { checkRoom, type QuotaGate } from '../../quota/admit';

/** What uploads through upload links need; app-services.ts composes it. */
export interface UploadLinkDeps extends AccessDeps {
  ephemeral: Ephemeral;
  counters: ShareCounters;
  hooks: HookRunner;
  /** The server's one registry of unfinished tus uploads. */
  registry: UploadRegistry;
  /** Told about what fails after a file is in place (after-hooks of tus uploads), which fails nothing. */
  report?: (err: unknown) => void;
  /** The owners' quotas (beyond.md §6): what a link receives counts towards its owner's. */
  quota?: QuotaGate;
}

/** Files one client address may send through one link per minute (beyond.md §2). */
export const UPLOADS_PER_MINUTE = 60;

/** How many `name (n).ext` are tried before a name counts as taken for good (409). */
const MAX_TRIES = 10_000;

/** How long a chosen name stays reserved for a raw upload (a PATCH of a tus upload renews it). */
export const RESERVATION_MS = 3 * 60_000;

/** An upload link opened for a visitor: the folder's gate and its owner. */
export interface OpenUploadLink extends OpenShare {
  /** The link's hash. */
  hash: string;
}

/**
 * Opens an upload link (password or token as for downloads, or the id of a tus upload for its
 * follow-up requests): a download link answers 403, as does a link whose folder became a file.
 */
export async function openUploadLink(deps: UploadLinkDeps, req: PublicRequest & { hash: string }): Promise<OpenUploadLink> {
  const open = await openShare(deps, { ...req, path: req.hash });
  if (open.link.kind !== 'upload' || !open.isDir) throw new AppError('forbidden');
  return { ...open, hash: req.hash };
}

function reservationKey(real: string): string {
  return `upload-link:name:${real}`;
}

/** Whether nothing is at a target and no other upload through a link has reserved its name. */
async function isFree(deps: UploadLinkDeps, target: Target): Promise<boolean> {
  if ((await lstatOrNull(target.real)) !== null) return false;
  return (await deps.ephemeral.get<boolean>(reservationKey(target.real))) !== true;
}

/**
 * Reserves the first free name of `name`, `name (1).ext` ... in the link's folder for one upload
 * (nothing there on disk, no other upload holding it). Names the owner's rules deny are 403.
 */
export async function reserveName(deps: UploadLinkDeps, gate: PathGate, name: string): Promise<Target> {
  return deps.ephemeral.withLock(`upload-link:folder:${gate.realRoot}`, async () => {
    for (let n = 0; n < MAX_TRIES; n++) {
      const target = await gate.resolve(joinPath('/', storedName(name, n)), 'write');
      if (!(await isFree(deps, target))) continue;
      await deps.ephemeral.put(reservationKey(target.real), true, RESERVATION_MS);
      return target;
    }
    throw new AppError('exists');
  });
}

/** Keeps a reservation alive while its upload goes on. */
export function renewReservation(deps: UploadLinkDeps, target: Target): Promise<void> {
  return deps.ephemeral.put(reservationKey(target.real), true, RESERVATION_MS);
}

/** Gives a reserved name back (the upload ended, one way or the other). */
export function releaseName(deps: UploadLinkDeps, target: Target): Promise<void> {
  return deps.ephemeral.delete(reservationKey(target.real));
}

/**
 * Admits one file through an upload link before a byte of it is written, the one place every
 * upload through a link passes (raw POST and tus creation): the rate of 60 files a minute per
 * link and client address (429), the owner's rules on the name (403), and a free name reserved.
 * The owner's quota (beyond.md §6) too, against `length`, the size declared by Content-Length or
 * Upload-Length (undefined when a raw body declares none: its bytes are metered as they stream).
 */
export async function admitUpload(deps: UploadLinkDeps, open: OpenUploadLink, req: { name: string; address: string; length?: number }): Promise<Target> {
  const sent = await deps.ephemeral.hit(`upload-link:rate:${open.hash}:${req.address}`, 60_000);
  if (sent > UPLOADS_PER_MINUTE) throw new AppError('too_many_requests', `at most ${UPLOADS_PER_MINUTE} files a minute`);
  // A link only ever adds new files: nothing is replaced, the whole length must fit.
  if (req.length !== undefined) await checkRoom(deps.quota, open.owner, { real: '', length: req.length });
  return reserveName(deps, open.gate, req.name);
}
