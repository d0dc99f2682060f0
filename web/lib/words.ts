// How the settings forms turn text fields into lists (product.md §5).

/** Words separated by spaces, empty pieces dropped: the shell, a user's commands. */
export function splitWords(text: string): string[] {
  return text.split(' ').map((word) => word.trim()).filter(Boolean);
}

/** Lines, empty ones dropped: the commands of an event. */
export function splitLines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
}
