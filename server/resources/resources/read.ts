import type { Readable } from 'node:stream';
import type { RecursiveEntry, Resource } from '../../contract/resource';
import { AppError } from '../../errors';
import { checksumAlgorithm, checksumOf } from '../../fs/checksum';
import { fileInfo, fileStream, readTextContent, type FileInfo } from '../../fs/info';
import { streamDirectoryJson } from '../../fs/listing-stream';
import { baseName, parentPath } from '../../fs/paths';
import type { PathGate, Target } from '../../fs/scope';
import { rfc3339Nano } from '../../fs/stat-format';
import { createSlots } from '../../lib/slots';
import { subtitleFinder } from '../../fs/subtitles';
import { walk } from '../../fs/walk';
import type { UserRecord } from '../../state/schema';
import { gateOf, type ResourcesDeps } from './context';
import { resourceJsonStream } from './listing-json';

/** The three answers of GET /api/resources (api.md §3.4). */
export type GetResult =
  | { kind: 'json'; body: Resource }
  /** A directory: its Resource as JSON text, streamed (see listing-json.ts). */
  | { kind: 'jsonStream'; stream: Readable }
  | { kind: 'status'; status: 202 }
  | { kind: 'bytes'; stream: Readable };

export interface GetRequest {
  raw: string;
  checksum?: string | undefined;
  /** Header `X-Encoding: true` (the UI sends it for .csv files). */
  xEncoding: boolean;
}

interface Found {
  gate: PathGate;
  info: FileInfo;
  target: Target;
}

/**
 * Listings under way at once, from reading the folder to the last byte sent; the rest wait their
 * turn. Each holds its folder's entries and a stream of text: with 200 at once (clients opening
 * a 2,000-entry folder) the heap held ~100 MB of them, and listings are CPU work, so a few at a
 * time list as many per second on a small machine.
 */
const LISTINGS_AT_ONCE = 8;
const listingSlots = createSlots(LISTINGS_AT_ONCE);

async function directoryResource(deps: ResourcesDeps, user: UserRecord, { gate, info, target }: Found): Promise<Readable> {
  const sniff = deps.config.typeDetectionByHeader ? 'unknown' : 'off';
  const free = await listingSlots.acquire();
  try {
    const listing = await streamDirectoryJson(gate, target, { modify: true, sniff, sorting: user.sorting });
    const stream = resourceJsonStream({ sorting: { by: user.sorting.by, asc: user.sorting.asc }, ...info }, listing);
    // 'close' comes once the stream ended, failed or was destroyed (the client went away).
    stream.once('close', free);
    return stream;
  } catch (err) {
    free();
    throw err;
  }
}

async function fileResource(user: UserRecord, { gate, info, target }: Found): Promise<Resource> {
  if (info.type === 'video') {
    // The file itself passed the rules; a hidden parent folder (dotfiles) must not hide its subtitles' lookup.
    const parent = await gate.resolve(parentPath(target.path), 'read', { unchecked: true });
    const subs = await subtitleFinder(gate, parent).forVideo(baseName(target.path));
    if (subs.length > 0) info.subtitles = subs;
  }
  if ((info.type === 'text' || info.type === 'textImmutable') && user.perm.download) {
    const content = await readTextContent(target);
    if (content !== '') info.content = content;
  }
  return info;
}

/** GET /api/resources{p}: listing, file info, checksum or raw bytes for X-Encoding (§3.4). */
export async function getResource(deps: ResourcesDeps, user: UserRecord, opts: GetRequest): Promise<GetResult> {
  const gate = await gateOf(deps, user);
  const found = { gate, ...(await fileInfo(gate, opts.raw, { modify: user.perm.modify, sniff: 'full' })) };
  if (found.info.isDir) return { kind: 'jsonStream', stream: await directoryResource(deps, user, found) };
  if (opts.xEncoding) {
    if (!user.perm.download) return { kind: 'status', status: 202 };
    if (found.info.type === 'text') return { kind: 'bytes', stream: fileStream(found.target) };
  }
  if (opts.checksum !== undefined) {
    if (!user.perm.download) return { kind: 'status', status: 202 };
    const algo = checksumAlgorithm(opts.checksum);
    return { kind: 'json', body: { ...found.info, checksums: { [algo]: await checksumOf(found.target, algo) } } };
  }
  return { kind: 'json', body: await fileResource(user, found) };
}

/**
 * GET /api/resources/recursive{p} (§3.5): every entry below a directory, depth-first in name
 * order; `null` when the client went away (nothing is written then).
 */
export async function recursiveListing(deps: ResourcesDeps, user: UserRecord, req: { raw: string; signal: AbortSignal }): Promise<RecursiveEntry[] | null> {
  const { raw, signal } = req;
  const gate = await gateOf(deps, user);
  const found = await fileInfo(gate, raw, { modify: true, sniff: 'off' });
  if (!found.info.isDir) throw new AppError('bad_request', 'path is not a directory');
  const out: RecursiveEntry[] = [];
  for await (const e of walk(gate, found.target, { signal })) {
    out.push({ path: e.path, name: baseName(e.path), size: Number(e.stat.size), modified: rfc3339Nano(e.stat.mtimeNs), isDir: e.stat.isDirectory() });
  }
  return signal.aborted ? null : out;
}

