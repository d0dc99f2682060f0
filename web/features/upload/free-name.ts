/**
 * `name` when no item in `taken` has it, else the first free `base (n).ext` (ui.md "Replace":
 * `a.txt` -> `a (1).txt`). A folder, or a name whose only dot leads it (`.bashrc`), has no
 * extension: `photos (1)`, `.bashrc (1)`.
 */
export function freeName(name: string, taken: ReadonlySet<string>, isDir = false): string {
  if (!taken.has(name)) return name;
  const dot = isDir ? -1 : name.lastIndexOf('.');
  const cut = dot > 0 ? dot : name.length;
  const base = name.slice(0, cut);
  const ext = name.slice(cut);
  for (let n = 1; ; n++) {
    const candidate = `${base} (${n})${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}
