// How the settings forms turn text fields into lists (product.md §5).

/** Words separated by spaces, empty pieces dropped: the shell, a user's commands. */
export function splitWords(text: string): string[] {
  return text.split(' ').map((word) => word.trim()).filter(Boolean);
}

/** Lines, empty ones dropped: the commands of an event. */
export function splitLines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
}

/** The whole number typed in a numeric field (other characters ignored), at most `max`; 0 when empty. */
export function wholeNumberOf(text: string, max: number): number {
  const digits = text.replace(/\D/g, '');
  return digits === '' ? 0 : Math.min(max, Number(digits));
}
