import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors';
import { fsError } from './fs-error';
import type { Target } from './scope';

/** The digests GET /api/resources?checksum= offers (api.md §3.4). */
export const CHECKSUM_ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];

/** Narrows a query value to an offered algorithm; anything else is 400 without a message. */
export function checksumAlgorithm(raw: string): ChecksumAlgorithm {
  const found = CHECKSUM_ALGORITHMS.find((a) => a === raw);
  if (!found) throw new AppError('bad_request');
  return found;
}

/** Streams a gated file through the digest and returns it as lowercase hex. */
export async function checksumOf(target: Target, algo: ChecksumAlgorithm): Promise<string> {
  const hash = createHash(algo);
  try {
    await pipeline(createReadStream(target.resolved), hash);
  } catch (err) {
    throw fsError(err);
  }
  return hash.digest('hex');
}
