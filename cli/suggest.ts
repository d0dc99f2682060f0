/** Edit distance (insertions, deletions, substitutions, adjacent swaps) between two words. */
export function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  // d[i * width + j]: the distance between a's first i and b's first j characters.
  const d = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number): number => d[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++) d[i * width] = i;
  for (let j = 0; j <= b.length; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * width + j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The known word closest to a mistyped one, for "did you mean": a different letter case wins
 * (--baseUrl), then the smallest edit distance within a third of the word's length (at least 1,
 * at most 3). Undefined when nothing is close enough to be a likely typo.
 */
export function closest(word: string, known: Iterable<string>): string | undefined {
  const candidates = [...known];
  const lower = word.toLowerCase();
  const sameCase = candidates.find((c) => c.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: { word: string; distance: number } | undefined;
  for (const c of candidates) {
    const distance = editDistance(lower, c.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { word: c, distance };
  }
  return best?.word;
}
