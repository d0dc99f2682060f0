import { Readable } from 'node:stream';
import type { Resource } from '../../contract/resource';

/**
 * Items serialised per piece of the stream: about 18 KB of text for ordinary names, so each piece is
 * an ordinary young string that a scavenge frees, not a large object kept until a full collection.
 */
const ITEMS_PER_PIECE = 100;

function* pieces(resource: Omit<Resource, 'items'> & { items: string[] }): Generator<string> {
  const { items, ...rest } = resource;
  yield '{"items":[';
  for (let i = 0; i < items.length; i += ITEMS_PER_PIECE) {
    const end = Math.min(items.length, i + ITEMS_PER_PIECE);
    let piece = '';
    for (let j = i; j < end; j++) piece += (j > 0 ? ',' : '') + items[j];
    yield piece;
  }
  // `items` came first, so the other keys follow in their order: numDirs, numFiles, sorting, the file's fields.
  yield `],${JSON.stringify(rest).slice(1)}`;
}

/**
 * A directory's Resource (its items already JSON texts) as JSON text in pieces, byte for byte what JSON.stringify writes: a
 * 100,000-item listing is never held as one 20 MB string (and its Buffer copy), and the socket's
 * pace drives the serialising.
 */
export function resourceJsonStream(resource: Omit<Resource, 'items'> & { items: string[] }): Readable {
  return Readable.from(pieces(resource), { objectMode: false, highWaterMark: 64 * 1024 });
}
