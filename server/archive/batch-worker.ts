import type { Worker } from 'node:worker_threads';
import type { WorkerInit } from './worker-protocol';
import { parkArchiveWorker, spawnArchiveWorker, takeArchiveWorker } from './worker-spawn';

/** What a request/answer worker posts back: its answer, or why it could not give one. */
export type WorkerAnswer<Reply> = Reply | { kind: 'error'; message: string };

interface Waiter<Reply> {
  resolve(reply: Reply): void;
  reject(err: Error): void;
}

/**
 * One archive worker thread answering requests in the order they were made (the worker handles
 * one message at a time). It is started by the first request (or taken from the one a finished
 * archive left waiting, with `reuse`); close() stops it, or with `reuse` and nothing in flight
 * leaves it waiting for the next archive (worker-spawn.ts). A worker that fails or exits rejects
 * every waiting and later request.
 */
export class BatchWorker<Request extends { kind: string }, Reply extends { kind: string }> {
  #worker: Promise<Worker> | undefined;
  /** The worker once it is there, with the listeners this owner added. */
  #live: { worker: Worker; onMessage: (reply: WorkerAnswer<Reply>) => void; onError: (err: Error) => void; onExit: () => void } | undefined;
  #waiting: Waiter<Reply>[] = [];
  #failure: Error | undefined;
  #closed = false;

  constructor(
    private readonly source: () => Promise<string>,
    private readonly init: WorkerInit,
    private readonly options: { reuse?: boolean } = {},
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
    if (this.#park()) return;
    this.#fail(new Error('archive closed'));
  }

  /** With `reuse`, hands a healthy worker with nothing in flight over to wait for the next archive. */
  #park(): boolean {
    const live = this.#live;
    if (!this.options.reuse || !live || this.#failure || this.#waiting.length > 0) return false;
    live.worker.off('message', live.onMessage).off('error', live.onError).off('exit', live.onExit);
    this.#live = undefined;
    // The worker is no longer this owner's to terminate.
    this.#worker = undefined;
    this.#failure = new Error('archive closed');
    if (parkArchiveWorker(live.worker, this.init.format)) return true;
    void live.worker.terminate();
    return true;
  }

  #start(): Promise<Worker> {
    if (this.#worker) return this.#worker;
    const waiting = this.options.reuse ? takeArchiveWorker(this.init.format) : undefined;
    this.#worker = (waiting ? Promise.resolve('') : this.source()).then((code) => {
      if (this.#closed) {
        if (waiting) void waiting.terminate();
        throw new Error('archive closed');
      }
      return this.#own(waiting ?? spawnArchiveWorker(code, this.init));
    });
    return this.#worker;
  }

  #own(worker: Worker): Worker {
    const live = {
      worker,
      onMessage: (reply: WorkerAnswer<Reply>) => this.#receive(reply),
      onError: (err: Error) => this.#fail(err),
      onExit: () => this.#fail(new Error('archive worker exited unexpectedly')),
    };
    worker.on('message', live.onMessage).on('error', live.onError).on('exit', live.onExit);
    this.#live = live;
    return worker;
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
