import type { Worker } from 'node:worker_threads';
import type { WorkerInit } from './worker-protocol';
import { spawnArchiveWorker } from './worker-spawn';

/** What a request/answer worker posts back: its answer, or why it could not give one. */
export type WorkerAnswer<Reply> = Reply | { kind: 'error'; message: string };

interface Waiter<Reply> {
  resolve(reply: Reply): void;
  reject(err: Error): void;
}

/**
 * One archive worker thread answering requests in the order they were made (the worker handles
 * one message at a time). It is started by the first request; close() stops it, and a worker
 * that fails or exits rejects every waiting and later request.
 */
export class BatchWorker<Request extends { kind: string }, Reply extends { kind: string }> {
  #worker: Promise<Worker> | undefined;
  #waiting: Waiter<Reply>[] = [];
  #failure: Error | undefined;
  #closed = false;

  constructor(
    private readonly source: () => Promise<string>,
    private readonly init: WorkerInit,
  ) {}

  /** Posts a request, transferring `transfer` (buffers the caller gives up). */
  request(message: Request, transfer: ArrayBuffer[]): Promise<Reply> {
    if (this.#failure) return Promise.reject(this.#failure);
    const answer = new Promise<Reply>((resolve, reject) => this.#waiting.push({ resolve, reject }));
    // A caller that stops early may leave answers unawaited; they must not become unhandled rejections.
    answer.catch(() => undefined);
    void this.#start().then(
      (worker) => worker.postMessage(message, transfer),
      (err: unknown) => this.#fail(err),
    );
    return answer;
  }

  close(): void {
    this.#closed = true;
    this.#fail(new Error('archive closed'));
  }

  #start(): Promise<Worker> {
    this.#worker ??= this.source().then((code) => {
      if (this.#closed) throw new Error('archive closed');
      const worker = spawnArchiveWorker(code, this.init);
      worker.on('message', (reply: WorkerAnswer<Reply>) => this.#receive(reply));
      worker.on('error', (err) => this.#fail(err));
      worker.on('exit', () => this.#fail(new Error('archive worker exited unexpectedly')));
      return worker;
    });
    return this.#worker;
  }

  #receive(reply: WorkerAnswer<Reply>): void {
    if (reply.kind === 'error' && 'message' in reply) this.#fail(new Error(`archive worker failed: ${String(reply.message)}`));
    else this.#waiting.shift()?.resolve(reply as Reply);
  }

  /** Rejects every waiting request and every later one, and stops the worker. */
  #fail(err: unknown): void {
    this.#failure ??= err instanceof Error ? err : new Error(String(err));
    for (const waiter of this.#waiting.splice(0)) waiter.reject(this.#failure);
    void this.#worker?.then(
      (worker) => worker.terminate(),
      () => undefined,
    );
  }
}
