// Entry of the archive compression worker (bundled into a code string, see worker-source.ts).
// Runs the CPU-heavy compressors off the event loop: the main thread posts tar bytes in
// batches and gets compressed bytes back, in order; a zip worker deflates batches of small files.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { deflateFiles } from './deflate-files';
import { packFiles, unpackFiles } from './packed-files';
import { createEncoder } from './encoders';
import { readFiles } from './read-files';
import { encodeReply } from './read-reply';
import type { ChunkEncoder, DeflateReply, DeflateRequest, FromWorker, ReadRequest, ToWorker, WorkerFormat, WorkerInit } from './worker-protocol';

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

function send(port: MessagePort, message: FromWorker): void {
  if (message.kind !== 'out') {
    port.postMessage(message);
    return;
  }
  // Transfer instead of copying, but only a buffer the chunk owns whole: never a view into the
  // WASM heap or Node's shared Buffer pool.
  const { bytes } = message;
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  port.postMessage({ kind: 'out', bytes: owned }, [owned.buffer as ArrayBuffer]);
}

function handle(port: MessagePort, encoder: ChunkEncoder, message: ToWorker): void {
  const outputs = message.kind === 'data' ? encoder.write(message.bytes) : encoder.end();
  for (const bytes of outputs) send(port, { kind: 'out', bytes });
  send(port, { kind: message.kind === 'data' ? 'ack' : 'done' });
}

function serve(port: MessagePort, format: WorkerFormat): void {
  const ready = createEncoder(format);
  let queue = Promise.resolve();
  port.on('message', (message: ToWorker) => {
    queue = queue
      .then(async () => handle(port, await ready, message))
      .catch((err: unknown) => {
        send(port, { kind: 'error', message: messageOf(err) });
      });
  });
}

function deflateBatch(request: DeflateRequest): Extract<DeflateReply, { kind: 'deflated' }> {
  const files = unpackFiles(request).map((file) => file ?? new Uint8Array(0));
  const results = deflateFiles(files);
  const packed = packFiles(results.map((result) => result.deflated));
  return { kind: 'deflated', crcs: results.map((result) => result.crc), ...packed };
}

/** Answers each request with `answer`'s reply, its packed bytes transferred, or with the error. */
function serveRequests<Request>(port: MessagePort, answer: (request: Request) => { kind: string; bytes: Uint8Array }): void {
  port.on('message', (request: Request) => {
    let reply: { kind: string; bytes: Uint8Array };
    try {
      reply = answer(request);
    } catch (err) {
      port.postMessage({ kind: 'error', message: messageOf(err) });
      return;
    }
    port.postMessage(reply, [reply.bytes.buffer as ArrayBuffer]);
  });
}

if (parentPort) {
  const init = workerData as WorkerInit;
  if (init.format === 'zip') serveRequests(parentPort, deflateBatch);
  else if (init.format === 'read') serveRequests(parentPort, (request: ReadRequest) => encodeReply(readFiles(request.files, request.prepare)));
  else serve(parentPort, init.format);
}
