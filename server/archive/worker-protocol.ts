/** Formats whose compressor runs in a worker thread (WASM or pure JS, CPU-bound). */
/** Compressors, and the decompressors extraction uses ('unbz2', 'unxz'). */
export type WorkerFormat = 'tarbz2' | 'tarxz' | 'tarlz4' | 'tarsz' | 'unbz2' | 'unxz';

/**
 * Passed as workerData: which compressor the worker runs, or 'zip' (deflates small files for the
 * zip writer), or 'read' (reads small files for an archive's entries).
 */
export interface WorkerInit {
  format: WorkerFormat | 'zip' | 'read';
}

/** Main thread to worker: a batch of tar bytes, or the end of the input. */
export type ToWorker = { kind: 'data'; bytes: Uint8Array } | { kind: 'end' };

/**
 * Worker to main thread: compressed bytes, `ack` once a data batch is fully processed (flow
 * control), `done` after the end was flushed, or a fatal error.
 */
export type FromWorker =
  | { kind: 'out'; bytes: Uint8Array }
  | { kind: 'ack' }
  | { kind: 'done' }
  | { kind: 'error'; message: string };

/** A compressor that turns input bytes into output chunks synchronously. */
export interface ChunkEncoder {
  write(bytes: Uint8Array): Uint8Array[];
  end(): Uint8Array[];
}

/**
 * Files packed into one buffer, back to back: `sizes[i]` bytes each. One transferable buffer per
 * batch, instead of thousands of small ones (or views into Node's shared Buffer pool, which must
 * never be transferred).
 */
export interface PackedFiles {
  bytes: Uint8Array;
  sizes: number[];
}

/** Main thread to a zip worker: small files to deflate, each as its own deflate stream. */
export interface DeflateRequest extends PackedFiles {
  kind: 'deflate';
}

/**
 * A zip worker's answer, in request order: the deflated files packed (size -1: deflating did
 * not make the file smaller, store it as it is) and each file's CRC-32.
 */
export type DeflateReply = ({ kind: 'deflated'; crcs: number[] } & PackedFiles) | { kind: 'error'; message: string };

/** A file to read whole when it is small: its real path, and whether a final symlink may be followed. */
export interface FileToRead {
  path: string;
  follow: boolean;
  /** The entry's (safe) name in the archive: the tar header of a prepared file carries it. */
  name?: string;
}

/**
 * What the reader makes of a small file's content besides reading it: nothing (`raw`), its
 * whole tar record (header, content, padding), or its zip body (CRC-32, deflated when that
 * made it smaller). Prepared where it is read, the content needs no further copy or message.
 */
export type Preparation = 'raw' | 'tar' | 'zip';

/** Main thread to a reader worker: files to read. */
export interface ReadRequest {
  kind: 'read';
  files: FileToRead[];
  prepare: Preparation;
}

/** What fstat said of a file that was opened. */
export interface FileStat {
  size: number;
  mode: number;
  mtimeMs: number;
}

/** A zip body made by the reader: the content's CRC-32, and whether the stored bytes are deflated. */
export interface ZipBody {
  crc: number;
  deflated: boolean;
}

/**
 * What the reader found for one file: its content as prepared (`length` bytes of the reply's
 * buffer, in request order; a prepared file's `size` is the content's length as read), or that
 * it is too large to read now (`large`: stream it when it is written), could not be opened or
 * read (`failed`), or is not a regular file (`skip`).
 */
export type ReadOutcome =
  | ({ status: 'data'; length: number; zip?: ZipBody } & FileStat)
  | ({ status: 'large' } & FileStat)
  | { status: 'failed'; error: string }
  | { status: 'skip' };

/** A reader worker's answer: the outcomes in request order, the contents packed into one buffer. */
export interface ReadReply {
  kind: 'read';
  bytes: Uint8Array;
  outcomes: ReadOutcome[];
}
