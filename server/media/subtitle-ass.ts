import { clockToMs, cueLines, type Cue } from './subtitle-vtt';

/**
 * SubStation Alpha (.ssa, v4) and Advanced SSA (.ass, v4+) parsing: the Dialogue lines of the
 * [Events] section, located by its Format line. Styling is dropped: WebVTT has no equivalent
 * for positioning, karaoke or drawings, and plain text is what a <track> shows reliably.
 */

/** The ASS v4+ event format, used when a file has no Format line of its own. */
const DEFAULT_FORMAT = ['layer', 'start', 'end', 'style', 'name', 'marginl', 'marginr', 'marginv', 'effect', 'text'];
const TIME = /^\s*(\d+):(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?\s*$/;
const SECTION = /^\s*\[([^\]]+)\]\s*$/;

/** True when the text has at least one section header such as [Script Info] or [Events]. */
export function looksLikeAss(text: string): boolean {
  return text.split('\n').some((line) => SECTION.test(line));
}

/** Parses ASS/SSA text (line endings normalised) into cues sorted by start time. */
export function parseAss(text: string): Cue[] {
  let section = '';
  let format = DEFAULT_FORMAT;
  const cues: Cue[] = [];
  for (const line of text.split('\n')) {
    const header = SECTION.exec(line);
    if (header) {
      section = (header[1] ?? '').trim().toLowerCase();
      continue;
    }
    const colon = line.indexOf(':');
    if (section !== 'events' || colon < 0) continue;
    const kind = line.slice(0, colon).trim().toLowerCase();
    const rest = line.slice(colon + 1);
    if (kind === 'format') format = rest.split(',').map((f) => f.trim().toLowerCase());
    else if (kind === 'dialogue') pushDialogue(cues, format, rest);
  }
  // Events are often grouped by style or layer; WebVTT wants cues in time order.
  return cues.sort((a, b) => a.start - b.start);
}

function pushDialogue(cues: Cue[], format: string[], rest: string): void {
  // Text is the last field and may itself contain commas.
  const fields = splitFields(rest, format.length);
  const field = (name: string) => fields[format.indexOf(name)] ?? '';
  const start = parseTime(field('start'));
  const end = parseTime(field('end'));
  const lines = cueLines(plainText(field('text')));
  if (start !== undefined && end !== undefined && lines.length > 0) cues.push({ start, end, lines });
}

function splitFields(rest: string, count: number): string[] {
  const fields: string[] = [];
  let from = 0;
  for (let i = 0; i < count - 1; i++) {
    const comma = rest.indexOf(',', from);
    if (comma < 0) break;
    fields.push(rest.slice(from, comma).trim());
    from = comma + 1;
  }
  fields.push(rest.slice(from));
  return fields;
}

function parseTime(value: string): number | undefined {
  const m = TIME.exec(value);
  return m ? clockToMs(m.slice(1, 5)) : undefined;
}

/**
 * Dialogue text without override blocks `{\...}` and drawings (`{\p1}` up to `{\p0}`), with `\N`
 * as a line break, `\n` as a space (a soft break) and `\h` as a no-break space. `&` and `<` are
 * escaped because WebVTT reads them as entities and tags, while in ASS they are literal.
 */
function plainText(text: string): string {
  let out = '';
  let drawing = false;
  for (const part of text.split(/(\{[^}]*\})/)) {
    if (part.startsWith('{') && part.endsWith('}')) {
      const p = /\\p(\d+)/.exec(part);
      if (p) drawing = Number(p[1]) > 0;
      continue;
    }
    if (!drawing) out += part;
  }
  return out
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\\N/g, '\n')
    .replace(/\\n/g, ' ')
    .replace(/\\h/g, '\u00a0');
}
