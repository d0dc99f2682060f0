import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';

// Chunks are merged up to this size before they reach the socket.
const TARGET = 256 * 1024;

/**
 * Merges the many small chunks of an archive (a header and a few KiB per small file) into
 * writes of up to 256 KiB. Without it a folder of 20,000 small files made 20,000 socket
 * writes, a fifth of the server's time. Nothing waits longer than one turn of the event loop.
 */
class Coalescer extends Transform {
  private parts: Buffer[] = [];
  private bytes = 0;
  private scheduled = false;

  constructor() {
    super({ readableHighWaterMark: TARGET });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.parts.push(chunk);
    this.bytes += chunk.length;
    if (this.bytes >= TARGET) this.release();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.release();
      });
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.release();
    done();
  }

  private release(): void {
    if (this.bytes === 0 || this.destroyed) return;
    const merged = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.bytes);
    this.parts = [];
    this.bytes = 0;
    this.push(merged);
  }
}

/** The source's bytes in larger chunks; destroying either end destroys both. */
export function coalesce(source: Readable): Readable {
  const out = new Coalescer();
  pipeline(source, out, () => {
    // Failures reach the consumer through `out`, which pipeline destroys with them.
  });
  return out;
}
