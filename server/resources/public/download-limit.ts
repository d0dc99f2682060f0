import { AppError } from '../../errors';
import type { RawResponse } from '../../http/send-file';
import type { Ephemeral } from '../../state/ephemeral';
import type { ShareRecord } from '../../state/schema';
import type { ShareCounters } from '../../state/share-counters';

/**
 * The download count of a link (beyond.md §2). Every 200 of /api/public/dl counts; a 206 counts
 * only when it does not continue a download of the same file by the same client address already
 * counted in the last day (a resumed download or a video seeking is one download, a fresh client
 * sending `Range` is a new one). HEAD, 304 and refusals never count; on an unlimited link, whose
 * count only informs, no 206 does.
 */
export interface DownloadLimitDeps {
  counters: ShareCounters;
  ephemeral: Ephemeral;
}

/** How long a counted download can be continued by 206 answers without counting again. */
const CONTINUE_MS = 24 * 3600_000;

/** The link's download limit, 0 when unlimited. */
function limitOf(link: ShareRecord): number {
  return link.maxDownloads ?? 0;
}

/** 410 when a limited link has given all its downloads (checked before a file is opened). */
export function checkNotExhausted(link: ShareRecord): void {
  const limit = limitOf(link);
  if (limit > 0 && (link.downloads ?? 0) >= limit) throw new AppError('gone');
}

/** What a download answer is about: the link, the path served and who asked. */
export interface Served {
  link: ShareRecord;
  path: string;
  address: string;
  method: string;
}

function continuationKey(s: Served): string {
  return `share-dl:${s.link.hash}:${s.address}:${s.path}`;
}

async function counts(deps: DownloadLimitDeps, s: Served, status: number): Promise<boolean> {
  if (s.method === 'HEAD') return false;
  if (status === 200) return true;
  // An unlimited link's count only informs: its 206s are taken for continuations without asking.
  if (limitOf(s.link) === 0) return false;
  return status === 206 && (await deps.ephemeral.get<boolean>(continuationKey(s))) !== true;
}

/**
 * Counts the answer `res` of a public download against the link's limit; at the limit the answer
 * is dropped (its file closed) and the visitor gets 410. Returns `res` when it may be sent.
 */
export async function countDownload(deps: DownloadLimitDeps, s: Served, res: RawResponse): Promise<RawResponse> {
  if (!(await counts(deps, s, res.status))) return res;
  if (!(await deps.counters.takeDownload(s.link.hash, limitOf(s.link)))) {
    if (res.body !== undefined && typeof res.body !== 'string') res.body.destroy();
    throw new AppError('gone');
  }
  if (limitOf(s.link) > 0) await deps.ephemeral.put(continuationKey(s), true, CONTINUE_MS);
  return res;
}
