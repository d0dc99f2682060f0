import { Readable } from 'node:stream';
import type { Resource } from '../../contract/resource';
import type { DirectoryStream } from '../../fs/listing-stream';

/**
 * Items serialised per piece of the stream: about 18 KB of text for ordinary names, so each piece is
 * an ordinary young string that a scavenge frees, not a large object kept until a full collection.
 */
const ITEMS_PER_PIECE = 100;

/** A directory's own fields: the Resource without its items and counts. */
export type DirectoryHead = Omit<Resource, 'items' | 'numDirs' | 'numFiles'>;

async function* pieces(head: DirectoryHead, listing: DirectoryStream): AsyncGenerator<string> {
  yield '{"items":[';
  let piece = '';
  let inPiece = 0;
  let first = true;
  for await (const batch of listing.items) {
    for (const item of batch) {
      piece += first ? item : `,${item}`;
      first = false;
      if (++inPiece === ITEMS_PER_PIECE) {
        yield piece;
        piece = '';
        inPiece = 0;
      }
    }
  }
  if (piece !== '') yield piece;
  // `items` came first, so the other keys follow in their order: numDirs, numFiles, sorting, the file's fields.
  const { numDirs, numFiles } = listing.counts();
  yield `],${JSON.stringify({ numDirs, numFiles, ...head }).slice(1)}`;
}

/**
 * A directory's Resource as JSON text in pieces, byte for byte what JSON.stringify writes: a
 * 100,000-item listing is never held as one 20 MB string (and its Buffer copy), and the socket's
 * pace drives the listing (see streamDirectoryJson) and the serialising.
 */
export function resourceJsonStream(head: DirectoryHead, listing: DirectoryStream): Readable {
  return Readable.from(pieces(head, listing), { objectMode: false, highWaterMark: 64 * 1024 });
}
