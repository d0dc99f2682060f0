/** True when `path` equals `dir` or lies below it, on a '/' boundary (user, rule or real paths). */
export function isWithin(dir: string, path: string): boolean {
  if (dir === '/' || dir === path) return true;
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  return path.startsWith(prefix);
}
