import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { AppError } from '../errors';
import { etagOf } from '../fs/stat-format';
import { inlineContentType } from './content-type';
import { FileBody, READ_CHUNK } from './file-body';
import { contentRange, selectRanges, type ByteRange } from './http-range';
import { checkPreconditions } from './preconditions';

/** A response the raw service decided on; the route writes it as it is. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[]>;
  /** Absent: no body (HEAD, 304, named pipe); a string: a status body such as "202 Accepted\n". */
  body?: Readable | string;
}

/** A regular file opened for serving, with what its handle's fstat said. */
export interface OpenFile {
  name: string;
  fh: FileHandle;
  stats: BigIntStats;
}

/** What of the request shapes a file response. */
export interface FileRequest {
  method: string;
  headers: IncomingHttpHeaders;
  inline: boolean;
}

/** Go's ServeContent leaves Last-Modified out for a file dated at the Unix epoch. */
function lastModified(mtimeMs: number): Record<string, string> {
  return mtimeMs === 0 ? {} : { 'last-modified': new Date(mtimeMs).toUTCString() };
}

interface Multipart {
  type: string;
  length: number;
  body(): Readable;
}

/** A multipart/byteranges body, laid out as Go's mime/multipart writer does. */
function multipart(file: OpenFile, ranges: ByteRange[], type: string): Multipart {
  const boundary = randomBytes(30).toString('hex');
  const size = Number(file.stats.size);
  const heads = ranges.map(
    (range, i) => `${i === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Range: ${contentRange(range, size)}\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = `\r\n--${boundary}--\r\n`;
  const length = heads.reduce((sum, head, i) => sum + Buffer.byteLength(head) + (ranges[i]?.length ?? 0), Buffer.byteLength(tail));
  async function* parts(): AsyncGenerator<Buffer> {
    for (const [i, range] of ranges.entries()) {
      yield Buffer.from(heads[i] ?? '');
      yield* readRange(file.fh, range);
    }
    yield Buffer.from(tail);
  }
  return { type: `multipart/byteranges; boundary=${boundary}`, length, body: () => owning(file.fh, Readable.from(parts(), { objectMode: false })) };
}

/** Closes the handle once the body is over, whether it ended, failed or was destroyed unread. */
function owning(fh: FileHandle, body: Readable): Readable {
  body.once('close', () => {
    void fh.close().catch(() => undefined);
  });
  return body;
}

async function* readRange(fh: FileHandle, range: ByteRange): AsyncGenerator<Buffer> {
  for (let done = 0; done < range.length; ) {
    const want = Math.min(READ_CHUNK, range.length - done);
    const { bytesRead, buffer } = await fh.read(Buffer.allocUnsafe(want), 0, want, range.start + done);
    if (bytesRead === 0) throw new Error('file shrank while being sent');
    done += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** The body of one range or of the whole file (undefined: nothing to send). */
function plainBody(file: OpenFile, range: ByteRange | undefined): Readable | undefined {
  const start = range?.start ?? 0;
  const length = range?.length ?? Number(file.stats.size);
  if (length === 0) return undefined;
  // The body owns the handle from here and closes it when it ends or is destroyed.
  return new FileBody({ fh: file.fh, start, length });
}

type Headers = Record<string, string | string[]>;

/** Chooses the body for the ranges to serve: the whole file, one range or several. */
async function servedBody(file: OpenFile, ranges: ByteRange[], { head, headers }: { head: boolean; headers: Headers }): Promise<RawResponse> {
  const size = Number(file.stats.size);
  if (ranges.length > 1) {
    const parts = multipart(file, ranges, String(headers['content-type']));
    const all = { ...headers, 'content-type': parts.type, 'content-length': String(parts.length) };
    if (head) await file.fh.close();
    return { status: 206, headers: all, body: head ? undefined : parts.body() };
  }
  const range = ranges[0];
  const all: Headers = { ...headers, 'content-length': String(range ? range.length : size) };
  if (range) all['content-range'] = contentRange(range, size);
  const body = head ? undefined : plainBody(file, range);
  if (body === undefined) await file.fh.close();
  return { status: range ? 206 : 200, headers: all, body };
}

/**
 * Serves an opened regular file as Go's http.ServeContent does (api.md §3.11): ETag and
 * Last-Modified, 412/304 for the conditional headers, 206 for one range or multipart/byteranges
 * for several, 416 for unsatisfiable ones, Accept-Ranges and Content-Length. `headers` are the
 * download headers already decided (disposition, security); an attachment's type is already
 * set, an inline file's type comes from its extension or its first bytes. Takes ownership of
 * the handle: it is closed by the body, or here when there is no body.
 */
export async function serveFile(file: OpenFile, req: FileRequest, headers: Headers): Promise<RawResponse> {
  let handedOver = false;
  try {
    const mtimeMs = Number(file.stats.mtimeMs);
    const validators = { etag: etagOf(file.stats), mtimeMs };
    const base: Headers = { ...headers, etag: validators.etag, ...lastModified(mtimeMs) };
    const outcome = checkPreconditions(req.headers, validators);
    if (outcome.kind === 'failed') throw new AppError('precondition_failed');
    if (outcome.kind === 'not-modified') {
      // RFC 9110 §15.4.5: no body headers; Last-Modified is redundant next to the ETag.
      const { 'content-type': _type, 'last-modified': _date, ...kept } = base;
      return { status: 304, headers: kept };
    }
    const type = base['content-type'] ?? (await inlineContentType(file.name, file.fh));
    const ranges = selectRanges(outcome.range, Number(file.stats.size));
    handedOver = true;
    const all = { ...base, 'content-type': type, 'accept-ranges': 'bytes' };
    return await servedBody(file, ranges, { head: req.method === 'HEAD', headers: all });
  } finally {
    if (!handedOver) await file.fh.close();
  }
}
