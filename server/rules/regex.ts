/**
 * Rule regexes are written for Go's RE2 (filebrowser's exports carry them). JavaScript accepts
 * almost the same syntax; the differences admins actually use are translated here:
 * - a leading inline-flag group `(?i)`, `(?s)`, `(?m)`, `(?is)`... becomes JS flags;
 * - `(?P<name>...)` named groups become `(?<name>...)`;
 * - `\A` and `\z` (start and end of text) become `^` and `$` (without the `m` flag they mean that).
 * Other RE2 flags (`U`) have no JS equivalent and are refused.
 */
const LEADING_FLAGS = /^\(\?([a-zA-Z]+)\)/;

function jsFlags(re2Flags: string): string {
  let flags = '';
  for (const f of re2Flags) {
    if (f !== 'i' && f !== 's' && f !== 'm') throw new SyntaxError(`unsupported inline flag (?${f})`);
    if (!flags.includes(f)) flags += f;
  }
  return flags;
}

/** Compiles an RE2-style rule expression into a JS RegExp; throws SyntaxError when invalid. */
export function compileRuleRegex(raw: string): RegExp {
  let source = raw;
  let flags = '';
  const lead = LEADING_FLAGS.exec(source);
  if (lead?.[1]) {
    flags = jsFlags(lead[1]);
    source = source.slice(lead[0].length);
  }
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/(^|[^\\])((?:\\\\)*)\\A/g, '$1$2^')
    .replace(/(^|[^\\])((?:\\\\)*)\\z/g, '$1$2$');
  return new RegExp(source, flags);
}
