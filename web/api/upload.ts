// Uploads of the browser (product.md §7, api.md §3.6 and §3.17): the raw POST with progress through
// XMLHttpRequest (fetch reports no upload progress), and tus through tus-js-client, loaded only
// when a resumable upload starts.
import type { PageConfig } from '@contract/page-config';
import type { DetailedError, HttpRequest, HttpResponse, Upload, UploadOptions } from 'tus-js-client';
import { FALLBACK_CHUNK_SIZE } from '../lib/bytes';
import { apiPaths } from '../paths';
import { apiUrl, currentToken, exchange, HttpError, sessionRejected } from './http';

/** Why an upload failed, besides an HTTP status of the server (a 409 is an HttpError). */
export type UploadFailure = 'aborted' | 'create' | 'settings' | 'failed';

// product.md §8: the texts of the error catalogue; the UI shows them translated.
const MESSAGES: Record<Exclude<UploadFailure, 'failed'>, string> = {
  aborted: '001 Connection aborted',
  create: 'Failed to create an upload',
  settings: 'The resumable upload settings are not defined',
};

/** A failed upload: its kind, and for 'failed' what the server or the network said. */
export class UploadError extends Error {
  constructor(
    readonly failure: UploadFailure,
    readonly detail = '',
  ) {
    super(failure === 'failed' ? `Upload failed: ${detail}` : MESSAGES[failure]);
    this.name = 'UploadError';
  }
}

/** The page configuration's tus settings (api.md §3.19). */
export type TusSettings = PageConfig['TusSettings'];

export interface FileUpload {
  /** The target's user path. */
  path: string;
  file: File;
  /** Replace a file of the same name (`override=true`). */
  overwrite: boolean;
  /** Bytes sent so far. */
  onProgress: (loaded: number) => void;
}

/** An upload under way: settles when it ends; `cancel` stops it (the promise then rejects). */
export interface UploadTask {
  done: Promise<void>;
  cancel: () => void;
}

function failedStatus(status: number, body: string, hadToken: boolean): Error {
  if (status === 401 && hadToken) sessionRejected();
  return new HttpError(status, body);
}

/** POST /api/resources{path}?override= with the file as the raw body, reporting upload progress. */
export function postFile(req: FileUpload): UploadTask {
  const xhr = new XMLHttpRequest();
  const done = new Promise<void>((resolve, reject) => {
    const token = currentToken();
    xhr.open('POST', apiUrl(`${apiPaths.resources(req.path)}?override=${req.overwrite}`));
    if (token) xhr.setRequestHeader('X-Auth', token);
    xhr.upload.onprogress = (event) => req.onProgress(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else reject(failedStatus(xhr.status, xhr.responseText, token !== ''));
    };
    // The connection broke (or the request was cancelled): no status to report.
    xhr.onerror = () => reject(new UploadError('aborted'));
    xhr.onabort = () => reject(new UploadError('aborted'));
    xhr.send(req.file);
  });
  return { done, cancel: () => xhr.abort() };
}

/** POST /api/resources{path}/: creates a folder (an existing one is no error, api.md §3.6). */
export async function postFolder(path: string): Promise<void> {
  const dir = path.endsWith('/') ? path : `${path}/`;
  await exchange(`${apiPaths.resources(dir)}?override=false`, { method: 'POST', body: '' });
}

/** product.md §9: 1 s, doubling, at most 20 s, one delay per allowed retry (none below 1). */
export function retryDelays(retryCount: number): number[] {
  const count = Math.max(0, Math.floor(retryCount));
  return Array.from({ length: count }, (_, i) => Math.min(1000 * 2 ** i, 20_000));
}

function isCreation(req: HttpRequest | undefined): boolean {
  return req?.getMethod() === 'POST';
}

/** A conflict is final (the replace prompt asks); other 4xx too, except a locked upload; a full quota (507) too. */
function shouldRetry(err: DetailedError): boolean {
  if (err.causingError instanceof UploadError) return false;
  const status = err.originalResponse?.getStatus() ?? 0;
  return status === 0 || (status >= 500 && status !== 507) || status === 423;
}

function failureOf(err: Error | DetailedError): Error {
  const detailed = err as Partial<DetailedError>;
  if (detailed.causingError instanceof UploadError) return detailed.causingError;
  const res: HttpResponse | null | undefined = detailed.originalResponse;
  if (!res) return new UploadError('failed', detailed.originalRequest ? '000 No connection' : err.message);
  const status = res.getStatus();
  if (status === 409 || status === 401) return failedStatus(status, res.getBody(), true);
  // No room (beyond.md §6) says so, also at the creation: "Upload failed: not enough space".
  if (status === 507) return new UploadError('failed', res.getBody().trim() || '507 Insufficient Storage');
  if (isCreation(detailed.originalRequest)) return new UploadError('create');
  return new UploadError('failed', res.getBody().trim() || String(status));
}

function tusOptions(req: FileUpload, settings: TusSettings, settle: Settle): UploadOptions {
  const endpoint = new URL(apiUrl(`${apiPaths.tus(req.path)}?override=${req.overwrite}`), window.location.href).href;
  return {
    endpoint,
    chunkSize: settings.chunkSize > 0 ? settings.chunkSize : FALLBACK_CHUNK_SIZE,
    retryDelays: retryDelays(settings.retryCount),
    parallelUploads: 1,
    // The fingerprint (name, type, size, date, endpoint) finds an unfinished upload of the same
    // file to the same place, also after a reload, and the upload resumes from the server's offset.
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    // The token is read for every request: a long upload outlives a renewal.
    onBeforeRequest: (r) => {
      const token = currentToken();
      if (token) r.setHeader('X-Auth', token);
    },
    // product.md §7: creation must answer 201 (tus-js-client itself takes any 2xx).
    onAfterResponse: (r, res) => {
      const status = res.getStatus();
      if (isCreation(r) && status >= 200 && status < 300 && status !== 201) throw new UploadError('create');
    },
    onShouldRetry: shouldRetry,
    onProgress: (sent) => req.onProgress(sent),
    onSuccess: () => settle.resolve(),
    onError: (err) => settle.reject(failureOf(err)),
  };
}

/** How a tus upload reports its end to the task that waits for it. */
export interface Settle {
  resolve: () => void;
  reject: (e: Error) => void;
}

/**
 * Starts a tus upload of `file` with the options `optionsOf` builds, resuming an unfinished
 * upload of the same file when tus-js-client remembers one; `cancel` terminates it (DELETE
 * removes the unfinished file on the server and the stored fingerprint). tus-js-client loads
 * on the first upload.
 */
export function resumableUpload(file: File, optionsOf: (settle: Settle) => UploadOptions): UploadTask {
  let upload: Upload | undefined;
  let cancelled = false;
  let stop = (): void => undefined;
  const done = (async () => {
    const tus = await import('tus-js-client');
    if (cancelled) throw new UploadError('aborted');
    await new Promise<void>((resolve, reject) => {
      stop = () => reject(new UploadError('aborted'));
      const started = new tus.Upload(file, optionsOf({ resolve, reject }));
      upload = started;
      started.findPreviousUploads().then((previous) => {
        const last = previous[0];
        if (last) started.resumeFromPreviousUpload(last);
        if (!cancelled) started.start();
      }, reject);
    });
  })();
  const cancel = (): void => {
    cancelled = true;
    upload?.abort(true).catch(() => undefined);
    stop();
  };
  return { done, cancel };
}

/** A resumable upload to /api/tus{path}?override= (api.md §3.17), resumed when one was left unfinished. */
export function tusFile(req: FileUpload, settings: TusSettings | undefined): UploadTask {
  if (!settings) return { done: Promise.reject(new UploadError('settings')), cancel: () => undefined };
  return resumableUpload(req.file, (settle) => tusOptions(req, settings, settle));
}
