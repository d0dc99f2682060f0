import { clockToMs, cueLines, type Cue } from './subtitle-vtt';

/**
 * SubRip (.srt) parsing. Real files are loose: the cue number may be missing, the fraction may use
 * "." or have fewer digits, hours may be missing, and a cue's text may hold an empty line. So the
 * parser is line-driven: a timing line starts a cue, a number right before a timing line is that
 * cue's index, and every other non-empty line belongs to the current cue.
 */

const TIME = String.raw`(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[,.](\d{1,3}))?`;
const TIMING = new RegExp(String.raw`^\s*${TIME}\s*-->\s*${TIME}`);
const INDEX = /^\s*\d+\s*$/;

/** Every `<br>` tag, any case, with or without a slash or attributes. */
const BREAK_TAG = /<br\b[^>]*>/gi;

/** Replaces `<br>`, `<BR/>`, `<br />`, `<br class="x">` by newlines (api.md §3.13: before parsing). */
export function replaceBreaks(text: string): string {
  return text.replace(BREAK_TAG, '\n');
}

/** Parses SRT text (line endings already normalised) into cues; malformed lines before a cue are dropped. */
export function parseSrt(text: string): Cue[] {
  const lines = replaceBreaks(text).split('\n');
  const cues: Cue[] = [];
  let current: { start: number; end: number; text: string[] } | undefined;
  const flush = () => {
    if (current) cues.push({ start: current.start, end: current.end, lines: cueLines(current.text.join('\n')) });
  };
  lines.forEach((line, i) => {
    const timing = TIMING.exec(line);
    if (timing) {
      flush();
      current = { start: clockToMs(timing.slice(1, 5)), end: clockToMs(timing.slice(5, 9)), text: [] };
      return;
    }
    // The next cue's number is not text of this one.
    if (INDEX.test(line) && TIMING.test(lines[i + 1] ?? '')) return;
    current?.text.push(line);
  });
  flush();
  return cues;
}
