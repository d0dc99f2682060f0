import { basename } from 'node:path';
import { createArchiveStream } from '../../archive/archive';
import { archiveExtension, parseArchiveAlgo, type ArchiveFormat } from '../../archive/formats';
import { defaultArchiveWorkerSource } from '../../archive/worker-source';
import { AppError } from '../../errors';
import { baseName, parentPath } from '../../fs/paths';
import type { PathGate, Target } from '../../fs/scope';
import { archiveEntries, type ArchiveRoot } from './archive-entries';
import { coalesce } from './coalesce';
import { contentDisposition } from '../../http/content-disposition';
import { selectedOnDisk } from './disk';
import { archiveName, commonDir, parseSelection } from './selection';
import type { RawResponse } from '../../http/send-file';

/** What an archive download needs besides the directory. */
export interface ArchiveRequest {
  /** The `files` query (comma-separated selection), undefined for the whole directory. */
  files: string | undefined;
  /** The `algo` query. */
  algo: string | undefined;
  head: boolean;
  /** Aborted when the client went away. */
  signal: AbortSignal;
  /** Reports a member left out (vanished, unreadable, unsafe name). */
  onSkip: (path: string, err: Error) => void;
}

/** The gate of the request and the compression worker's code loader. */
export interface ArchiveContext {
  gate: PathGate;
  workerSource?: () => Promise<string>;
}

const contentTypes: Readonly<Record<ArchiveFormat, string>> = {
  zip: 'application/zip',
  tar: 'application/x-tar',
  targz: 'application/gzip',
  tarbz2: 'application/x-bzip2',
  tarxz: 'application/x-xz',
  tarlz4: 'application/x-lz4',
  tarsz: 'application/x-snappy-framed',
  tarbr: 'application/x-brotli',
  tarzst: 'application/zstd',
};

/**
 * One selected path through the gate (rules, confinement, hidden files: 403/404), with its
 * stat; a directory is walked from its resolved path so that its members' real paths are
 * canonical for the hidden-file check.
 */
async function selectedRoot(gate: PathGate, path: string): Promise<ArchiveRoot> {
  const target = await gate.resolve(path);
  const { real, stats, linked } = await selectedOnDisk(target);
  if (stats.isDirectory() && !(await gate.confines(real))) throw new AppError('forbidden');
  return { path: target.path, real, stats, linked };
}

/** The common directory that names the entries: a single selected file is named by itself. */
function entriesBase(roots: readonly ArchiveRoot[], common: string): string {
  const [only] = roots;
  if (roots.length === 1 && only && !only.stats.isDirectory()) return parentPath(only.path);
  return common;
}

/**
 * Streams a directory, or a `files` selection inside it, as an archive (api.md §3.11, §14):
 * the format and the selection are validated and every selected path checked before anything
 * is sent, so bad input answers 400/403/404 with a status body; then members are streamed as
 * they are read, and the walk and the compressor stop when the client goes away.
 */
export async function archiveResponse(ctx: ArchiveContext, dir: Target, req: ArchiveRequest): Promise<RawResponse> {
  const format = parseArchiveAlgo(req.algo);
  const paths = parseSelection(dir.path, req.files);
  const roots: ArchiveRoot[] = [];
  for (const path of paths) roots.push(await selectedRoot(ctx.gate, path));
  const common = commonDir(roots.map((root) => root.path));
  const name = archiveName({
    common,
    // The user's root has no name of its own: the scope directory's on-disk name stands in.
    fallback: baseName(dir.path) || basename(ctx.gate.root),
    selected: roots.length,
    extension: archiveExtension(format),
  });
  const headers = { 'content-disposition': contentDisposition(name, false), 'content-type': contentTypes[format] };
  if (req.head) return { status: 200, headers };
  const workerSource = ctx.workerSource ?? defaultArchiveWorkerSource();
  // Plain tar is all reading, so files are read in a worker. A zip's small files are read and
  // deflated in batches on this thread: a worker made the zip about a fifth faster on two cores
  // but cost its own heap and allocator arena (20-30 MiB at the peak of a 20,000-file zip). The
  // other formats' compressors need the second core. Small files are prepared where they are read
  // (tar records, zip bodies): their bytes are never copied again before the socket.
  const readerSource = format === 'tar' ? workerSource : undefined;
  const prepare = format === 'zip' ? 'zip' : 'tar';
  const walk = { gate: ctx.gate, common: entriesBase(roots, common), signal: req.signal, onSkip: req.onSkip, readerSource, prepare } as const;
  const options = { signal: req.signal, onSkip: req.onSkip, workerSource };
  return { status: 200, headers, body: coalesce(createArchiveStream(format, archiveEntries(roots, walk), options)) };
}
