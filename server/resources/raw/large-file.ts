import { constants, createReadStream, openSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { FileToRead } from '../../archive/worker-protocol';

const READ_CHUNK = 256 * 1024;

/**
 * Opens a file for streaming into an archive, without following a final symlink unless the
 * gate confined it as a link. A file that cannot be opened gives a stream that fails on the
 * first read, which the archive writer reports and skips.
 */
export function openLarge(file: FileToRead): NodeJS.ReadableStream {
  try {
    const fd = openSync(file.path, constants.O_RDONLY | (file.follow ? 0 : constants.O_NOFOLLOW));
    return createReadStream('', { fd, highWaterMark: READ_CHUNK });
  } catch (err) {
    return new Readable({
      read() {
        this.destroy(err as Error);
      },
    });
  }
}
