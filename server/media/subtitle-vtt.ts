/** One timed caption, times in milliseconds, text lines already in WebVTT cue syntax. */
export interface Cue {
  start: number;
  end: number;
  lines: string[];
}

/** `HH:MM:SS.mmm`, hours at least two digits (WebVTT allows more). */
export function formatVttTime(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor(whole / 60_000) % 60;
  const seconds = Math.floor(whole / 1000) % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${pad(whole % 1000, 3)}`;
}

/**
 * Milliseconds from regex captures [hours?, minutes, seconds, fraction?]; the fraction is decimal
 * ("5" = 500 ms, "05" = 50 ms, as SRT's "1,5" and ASS's centiseconds mean).
 */
export function clockToMs(parts: readonly (string | undefined)[]): number {
  const [hours = '0', minutes = '0', seconds = '0', fraction = ''] = parts;
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0'));
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + ms;
}

/**
 * Cue text lines made safe for WebVTT: "-->" would end the cue's text (escaped as an entity) and an
 * empty line would end the cue itself (dropped).
 */
export function cueLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/-->/g, '--&gt;').trimEnd())
    .filter((line) => line.trim() !== '');
}

/** A WebVTT file holding `cues` in the given order. */
export function writeVtt(cues: readonly Cue[]): string {
  const blocks = cues.map((c) => `${formatVttTime(c.start)} --> ${formatVttTime(c.end)}\n${c.lines.join('\n')}\n`);
  return ['WEBVTT\n', ...blocks].join('\n');
}
