import { AppError } from '../errors';
import { zstdAvailable } from './zstd';

/** The archive formats a directory download can be streamed as (api.md §3.11, §14). */
export type ArchiveFormat = 'zip' | 'tar' | 'targz' | 'tarbz2' | 'tarxz' | 'tarlz4' | 'tarsz' | 'tarbr' | 'tarzst';

const extensions: Readonly<Record<ArchiveFormat, string>> = {
  zip: '.zip',
  tar: '.tar',
  targz: '.tar.gz',
  tarbz2: '.tar.bz2',
  tarxz: '.tar.xz',
  tarlz4: '.tar.lz4',
  tarsz: '.tar.sz',
  tarbr: '.tar.br',
  tarzst: '.tar.zst',
};

function isArchiveFormat(algo: string): algo is ArchiveFormat {
  return Object.hasOwn(extensions, algo);
}

/**
 * The format named by the `algo` query parameter: absent, `""` and `true` mean zip (the frontend's
 * default link). Anything else unknown is the client's mistake, so 400 rather than upstream's 500
 * (api.md §14). `tarzst` needs a Node with zstd in node:zlib (the executable's has it).
 */
export function parseArchiveAlgo(algo: string | undefined): ArchiveFormat {
  if (algo === undefined || algo === '' || algo === 'true') return 'zip';
  if (isArchiveFormat(algo) && (algo !== 'tarzst' || zstdAvailable())) return algo;
  throw new AppError('bad_request', `unsupported archive format ${algo}`);
}

/** The file-name extension of a format, dot included (`.tar.gz`). */
export function archiveExtension(format: ArchiveFormat): string {
  return extensions[format];
}

/**
 * The name an entry may carry inside an archive, or undefined when it must not be written.
 * A backslash becomes `_` so Windows extractors cannot read it as a separator; a name whose
 * cleaned form differs from itself (`..`, `.` or empty segments, a leading `/`) is refused,
 * because extractors would resolve it outside the target folder (GHSA-83xp-526h-j3ww,
 * GHSA-gxjx-7m74-hcq8). A NUL cannot be stored in a tar header, so it is refused too.
 */
export function safeEntryName(name: string): string | undefined {
  const cleaned = name.replaceAll('\\', '_');
  if (cleaned === '' || cleaned.startsWith('/') || cleaned.includes('\0')) return undefined;
  // Segment by segment without splitting: every file of an archive passes here.
  for (let start = 0; start <= cleaned.length; ) {
    const slash = cleaned.indexOf('/', start);
    const end = slash === -1 ? cleaned.length : slash;
    const length = end - start;
    if (length === 0 || (cleaned.charCodeAt(start) === 46 && (length === 1 || (length === 2 && cleaned.charCodeAt(start + 1) === 46)))) return undefined;
    start = end + 1;
  }
  return cleaned;
}
