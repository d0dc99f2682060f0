/**
 * An archive that cannot be read (truncated, corrupt, a format error of its codec). The
 * extraction answers it as 400 with this message, never as a server error.
 */
export class MalformedArchive extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'MalformedArchive';
  }
}

/** Any failure of a reader or codec as a MalformedArchive (kept when it already is one). */
export function asMalformed(err: unknown): MalformedArchive {
  if (err instanceof MalformedArchive) return err;
  // The archive worker reports a decoder's failure under its compressor's wording.
  const message = err instanceof Error ? err.message : String(err);
  return new MalformedArchive(message.replace(/^archive compression failed: /, ''));
}
