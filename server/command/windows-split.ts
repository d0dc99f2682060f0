/**
 * Windows-style splitting of a command line, as filebrowser's runner does on Windows hosts
 * (runner/commands_test.go): whitespace outside double quotes separates words; a double quote
 * toggles quoting; a quote right after a backslash, or right after another quote, is a literal
 * quote; every other backslash is a path separator and kept. An unclosed quote runs to the end.
 */

interface Scan {
  words: string[];
  word: string;
  quoted: boolean;
}

function quote(s: Scan, previous: string | undefined): void {
  if (previous === '\\') {
    // \" is an escaped quote: the backslash was kept provisionally and is replaced.
    s.word = `${s.word.slice(0, -1)}"`;
    return;
  }
  if (previous === '"') {
    // "" is an escaped quote: undo the toggle of the quote before it.
    s.quoted = !s.quoted;
    s.word += '"';
    return;
  }
  s.quoted = !s.quoted;
}

/** Splits a Windows command line into words; never fails. */
export function splitWindowsWords(line: string): string[] {
  const s: Scan = { words: [], word: '', quoted: false };
  const chars = [...line];
  chars.forEach((c, i) => {
    if (c === '"') quote(s, chars[i - 1]);
    else if (/\s/u.test(c) && !s.quoted) {
      if (s.word !== '') s.words.push(s.word);
      s.word = '';
    } else s.word += c;
  });
  if (s.word !== '') s.words.push(s.word);
  return s.words;
}
