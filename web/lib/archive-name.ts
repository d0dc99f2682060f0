/** The archive names the server extracts (beyond.md §5; server/archive/unpack/formats.ts). */
const SUFFIXES = ['.tar.gz', '.tgz', '.tar.bz2', '.tbz2', '.tbz', '.tar.xz', '.txz', '.tar.zst', '.tzst', '.tar', '.zip'];

/** The archive suffix of a file name (case-insensitive), or null when it is no archive we extract. */
export function extractableSuffix(name: string): string | null {
  const lower = name.toLowerCase();
  return SUFFIXES.find((suffix) => lower.endsWith(suffix) && lower.length > suffix.length) ?? null;
}

/** The name without its archive suffix: the folder an archive is extracted into by default. */
export function archiveStem(name: string): string {
  const suffix = extractableSuffix(name);
  return suffix === null ? name : name.slice(0, -suffix.length);
}
