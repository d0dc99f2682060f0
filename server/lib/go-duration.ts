const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  // Go accepts both micro signs, U+00B5 and U+03BC; escaped so the bundle stays ASCII (a non-Latin-1
  // character makes V8 hold the whole bundle's source as a two-byte string: twice the memory).
  '\u00b5s': 1e-3,
  '\u03bcs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/y;

/** Parses a Go duration string ("2h", "1h30m", "45s", "1.5h") into milliseconds; undefined when invalid. */
export function parseGoDuration(text: string): number | undefined {
  let s = text.trim();
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s.startsWith('-')) sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < s.length) {
    const m = PART.exec(s);
    if (!m?.[1] || !m[2]) return undefined;
    total += Number(m[1]) * (UNIT_MS[m[2]] ?? Number.NaN);
  }
  return Number.isFinite(total) ? sign * total : undefined;
}

/** The token lifetime of `--tokenExpirationTime`: empty, unparsable or non-positive means 2 h (api.md §2.2). */
export function tokenLifetimeMs(text: string): number {
  const ms = parseGoDuration(text);
  return ms !== undefined && ms > 0 ? ms : 2 * 3_600_000;
}
