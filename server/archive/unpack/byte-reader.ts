import { MalformedArchive } from './malformed';

/**
 * Pulls exact byte counts out of a stream of chunks (a tar stream after its decompressor), holding
 * at most one chunk beyond what was asked for.
 */
export class ByteReader {
  #chunks: Buffer[] = [];
  #have = 0;
  #done = false;
  /** Bytes handed out or skipped so far. */
  consumed = 0;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  /** Waits until `n` bytes are buffered; false when the stream ends first. */
  async fill(n: number): Promise<boolean> {
    while (this.#have < n && !this.#done) {
      const next = await this.source.next();
      if (next.done === true) this.#done = true;
      else if (next.value.length > 0) {
        this.#chunks.push(next.value);
        this.#have += next.value.length;
      }
    }
    return this.#have >= n;
  }

  /** Exactly `n` bytes (n small: headers); a truncated stream is a malformed archive. */
  async take(n: number): Promise<Buffer | null> {
    if (!(await this.fill(n))) {
      if (this.#have === 0) return null;
      throw new MalformedArchive('the archive ends in the middle of a header');
    }
    const all = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.#chunks = all.length > n ? [all.subarray(n)] : [];
    this.#have -= n;
    this.consumed += n;
    return all.subarray(0, n);
  }

  /** The next `n` bytes as chunks, as they arrive. */
  async *chunks(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (!(await this.fill(1))) throw new MalformedArchive('the archive ends in the middle of a file');
      const head = this.#chunks[0]!;
      const part = head.length <= left ? head : head.subarray(0, left);
      if (part === head) this.#chunks.shift();
      else this.#chunks[0] = head.subarray(left);
      this.#have -= part.length;
      this.consumed += part.length;
      left -= part.length;
      yield part;
    }
  }

  /** Drops the next `n` bytes. */
  async skip(n: number): Promise<void> {
    for await (const chunk of this.chunks(n)) void chunk;
  }
}
