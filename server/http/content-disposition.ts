// Go's url.PathEscape keeps the unreserved characters and the sub-delimiters a path segment may
// hold (`$ & + : = @`); everything else, `/ ; , ?` and every non-ASCII byte included, is %XX.
const KEPT = /^[A-Za-z0-9\-_.~$&+:=@]$/;

/** Percent-encodes a name the way Go's url.PathEscape does (UTF-8 bytes, upper-case hex, space as %20). */
export function pathEscape(name: string): string {
  let out = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && KEPT.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The Content-Disposition of a download (api.md §3.11): `inline` or `attachment` with the name as
 * an RFC 5987 `filename*`. The encoding leaves no quote, CR or LF, so a name cannot inject headers.
 */
export function contentDisposition(name: string, inline: boolean): string {
  return `${inline ? 'inline' : 'attachment'}; filename*=utf-8''${pathEscape(name)}`;
}
