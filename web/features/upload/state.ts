import i18next from 'i18next';
import { atom, type Getter, type Setter } from 'jotai';
import { HttpError } from '../../api/http';
import { getResource } from '../../api/resources';
import { postFile, postFolder, tusFile, UploadError, type UploadTask } from '../../api/upload';
import { failureText, type NoticeText } from '../../lib/notice';
import { statusLineText } from '../../lib/server-message';
import { parentPath } from '../../paths';
import { configAtom } from '../../state/config';
import { folderAtom } from '../../state/listing';
import { notifyAtom } from '../../state/notices';
import { reloadAtom, requestAtom } from '../../state/request';
import { clashesOf, jobsOf, renameClashing, type Entry, type NewJob } from './entries';
import { sentBytes, toStart, type Job } from './queue';
import { createRateMeter, type Rate } from './rate';
import { throttle, type Throttled } from './throttle';

/** product.md §9: progress reaches the screen at most every 100 ms. */
const PROGRESS_MS = 100;

/** The queue (product.md §4): queued and active jobs, in order; a finished job leaves it. */
export const jobsAtom = atom<readonly Job[]>([]);
/** Bytes sent per active job, as last shown. */
export const sentAtom = atom<ReadonlyMap<number, number>>(new Map<number, number>());
/** The batch: bytes of every file in it, and of those that finished. */
export const batchAtom = atom({ total: 0, finished: 0 });
/** Speed and time left, once measurable. */
export const rateAtom = atom<Rate | null>(null);

/** Uploads that met an existing name, waiting for Replace / Continue / Cancel (ui.md "Replace"). */
export interface Conflict {
  dest: string;
  entries: readonly Entry[];
  clashes: ReadonlySet<string>;
  taken: ReadonlySet<string>;
}
export const conflictsAtom = atom<readonly Conflict[]>([]);

/** The Upload prompt (File or Folder) is open. */
export const chooserOpenAtom = atom(false);

// The running uploads and their live byte counts live outside the atoms: progress events come many
// times a second and reach the atoms only through the throttle.
const tasks = new Map<number, UploadTask>();
const live = new Map<number, number>();
const meter = createRateMeter();
let nextId = 1;
let succeeded = 0;
let publisher: Throttled | null = null;

function publish(get: Getter, set: Setter): void {
  const batch = get(batchAtom);
  set(sentAtom, new Map(live));
  set(rateAtom, meter.sample(performance.now(), sentBytes(batch.finished, live), batch.total));
}

function progressed(get: Getter, set: Setter): void {
  publisher ??= throttle(() => publish(get, set), PROGRESS_MS);
  publisher();
}

function startTask(job: Job, get: Getter, onProgress: (loaded: number) => void): UploadTask {
  if (job.file === null) return { done: postFolder(job.path), cancel: () => undefined };
  const req = { path: job.path, file: job.file, overwrite: job.overwrite, onProgress };
  // product.md §7: tus when the server's settings carry a chunk size, else the raw POST.
  const tus = get(configAtom).TusSettings;
  return tus.chunkSize > 0 ? tusFile(req, tus) : postFile(req);
}

/** What an error notice says for a failed upload (product.md §8). */
export function failureNotice(error: unknown): NoticeText {
  if (error instanceof UploadError) {
    if (error.failure === 'failed') {
      // The server's status line (or the network's) in a sentence of the interface's language.
      const reason = statusLineText(error.detail);
      return { text: i18next.t('upload.errors.failed', { reason: i18next.t(reason.key, reason.values ?? {}) }) };
    }
    return { key: `upload.errors.${error.failure}` };
  }
  return failureText(error, true);
}

/** Names in a folder: from the listing on screen when it is that folder, else asked of the server. */
async function namesIn(get: Getter, dest: string): Promise<Set<string>> {
  const shown = get(requestAtom).resource;
  const items = get(folderAtom) === dest && shown ? shown.items : (await getResource(dest)).items;
  return new Set((items ?? []).map((item) => item.name));
}

/** The server refused a name that exists (409): the same prompt as a clash found beforehand. */
async function conflictOf(get: Getter, job: Job): Promise<Conflict> {
  const dest = parentPath(job.path);
  const name = job.path.slice(dest.length).replace(/\/$/, '');
  const taken = await getResource(dest).then((r) => new Set((r.items ?? []).map((i) => i.name)), () => new Set([name]));
  return { dest, entries: [{ relPath: name, file: job.file }], clashes: new Set([name]), taken };
}

/** The queue ran empty: progress resets, the listing reloads, one notice (product.md §4). */
const finishAtom = atom(null, (_get, set) => {
  publisher?.cancel();
  publisher = null;
  live.clear();
  meter.reset();
  set(sentAtom, new Map<number, number>());
  set(batchAtom, { total: 0, finished: 0 });
  set(rateAtom, null);
  if (succeeded === 0) return;
  succeeded = 0;
  set(reloadAtom, (n) => n + 1);
  set(notifyAtom, { kind: 'success', message: { key: 'upload.done' } });
});

/** One job ended: it leaves the queue, and the next queued ones start. */
const endJobAtom = atom(null, (get, set, end: { job: Job; error?: unknown }) => {
  const { job, error } = end;
  const cancelled = !tasks.has(job.id);
  tasks.delete(job.id);
  live.delete(job.id);
  set(jobsAtom, get(jobsAtom).filter((j) => j.id !== job.id));
  if (!cancelled && error === undefined) {
    succeeded += 1;
    set(batchAtom, (b) => ({ ...b, finished: b.finished + job.size }));
  } else {
    // A file that will not arrive no longer counts in the overall progress.
    set(batchAtom, (b) => ({ ...b, total: Math.max(0, b.total - job.size) }));
  }
  if (!cancelled && error instanceof HttpError && error.status === 409) {
    void conflictOf(get, job).then((c) => set(conflictsAtom, (all) => [...all, c]));
  } else if (!cancelled && error !== undefined) {
    set(notifyAtom, { kind: 'error', message: failureNotice(error) });
  }
  publisher?.flush();
  set(pumpAtom);
});

/** Starts queued jobs while fewer than five run; an empty queue ends the batch. */
const pumpAtom = atom(null, (get, set) => {
  const jobs = get(jobsAtom);
  if (jobs.length === 0) {
    set(finishAtom);
    return;
  }
  const starting = toStart(jobs);
  if (starting.length === 0) return;
  const ids = new Set(starting.map((job) => job.id));
  set(jobsAtom, jobs.map((job) => (ids.has(job.id) ? { ...job, status: 'active' as const } : job)));
  for (const job of starting) {
    const task = startTask(job, get, (loaded) => {
      live.set(job.id, loaded);
      progressed(get, set);
    });
    tasks.set(job.id, task);
    task.done.then(() => set(endJobAtom, { job }), (error: unknown) => set(endJobAtom, { job, error }));
  }
});

/** Adds jobs at the end of the queue and starts what may start. */
export const enqueueAtom = atom(null, (get, set, jobs: readonly NewJob[]) => {
  if (jobs.length === 0) return;
  const added = jobs.map((job): Job => ({ ...job, id: nextId++, status: 'queued' }));
  set(jobsAtom, [...get(jobsAtom), ...added]);
  set(batchAtom, (b) => ({ ...b, total: b.total + added.reduce((sum, job) => sum + job.size, 0) }));
  set(pumpAtom);
});

/**
 * Uploads entries into the folder `dest` (product.md §4): straight away when no name clashes with
 * an item there, else after the Replace prompt's answer.
 */
export const uploadAtom = atom(null, async (get, set, { entries, dest }: { entries: readonly Entry[]; dest: string }) => {
  if (entries.length === 0) return;
  try {
    const taken = await namesIn(get, dest);
    const clashes = clashesOf(entries, taken);
    if (clashes.size === 0) set(enqueueAtom, jobsOf(entries, dest, false));
    else set(conflictsAtom, [...get(conflictsAtom), { dest, entries, clashes, taken }]);
  } catch (error) {
    set(notifyAtom, { kind: 'error', message: failureNotice(error) });
  }
});

export type ConflictAnswer = 'replace' | 'continue' | 'cancel';

/** Answers the first waiting conflict: overwrite, keep both under free names, or drop the upload. */
export const answerConflictAtom = atom(null, (get, set, answer: ConflictAnswer) => {
  const [first, ...rest] = get(conflictsAtom);
  set(conflictsAtom, rest);
  if (!first || answer === 'cancel') return;
  const entries = answer === 'continue' ? renameClashing(first.entries, first.clashes, first.taken) : first.entries;
  set(enqueueAtom, jobsOf(entries, first.dest, answer === 'replace'));
});

/** Cancels one file: a running upload stops (tus also discards the partial file), a queued one leaves. */
export const cancelJobAtom = atom(null, (get, set, id: number) => {
  const job = get(jobsAtom).find((j) => j.id === id);
  if (!job) return;
  const task = tasks.get(id);
  tasks.delete(id);
  if (task) {
    // Its promise settles after this and ends the job as cancelled.
    task.cancel();
    return;
  }
  set(endJobAtom, { job });
});
