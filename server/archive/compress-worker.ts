// Entry of the archive compression worker (bundled into a code string, see worker-source.ts).
// Runs the CPU-heavy compressors off the event loop: the main thread posts tar bytes in
// batches and gets compressed bytes back, in order.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { createEncoder } from './encoders';
import type { ChunkEncoder, FromWorker, ToWorker, WorkerInit } from './worker-protocol';

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

function serve(port: MessagePort, init: WorkerInit): void {
  const ready = createEncoder(init.format);
  let queue = Promise.resolve();
  port.on('message', (message: ToWorker) => {
    queue = queue
      .then(async () => handle(port, await ready, message))
      .catch((err: unknown) => {
        send(port, { kind: 'error', message: err instanceof Error ? err.message : String(err) });
      });
  });
}

if (parentPort) serve(parentPort, workerData as WorkerInit);
