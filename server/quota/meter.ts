import { Transform, type Readable } from 'node:stream';

/** How a metered body asks for room: `grow(total)` reserves up to `total` bytes in all, or answers false. */
export interface MeterRoom {
  grow(total: number): Promise<boolean>;
  /** The error the body fails with once it passes the room. */
  over(): Error;
}

/**
 * The body as it streams, counted: each chunk is let through only once the room for every byte
 * so far is reserved; past the quota the stream fails with `over()`, so the durable write removes
 * its temporary file and leaves any previous file as it was (nothing written).
 */
export function meteredBody(body: Readable, room: MeterRoom): Readable {
  let total = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      room.grow(total).then(
        (ok) => done(ok ? null : room.over(), ok ? chunk : undefined),
        (err: unknown) => done(err as Error),
      );
    },
  });
  body.once('error', (err) => meter.destroy(err));
  // A body refused midway is still read to its end (the reply must not race the upload), and dropped.
  meter.once('error', () => body.resume());
  return body.pipe(meter);
}
