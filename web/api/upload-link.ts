// Uploads of a visitor through an upload link (beyond.md §2): tus to /api/public/tus/{hash}/{name},
// with tus-js-client loaded only when the first file starts. The fingerprint (file name, type,
// size, date, endpoint) is kept in the browser's storage, so after a reload the same file dropped
// again on the same link resumes from the server's offset.
import type { UploadedFile } from '@contract/share';
import type { DetailedError, HttpRequest, HttpResponse, UploadOptions } from 'tus-js-client';
import { FALLBACK_CHUNK_SIZE } from '../lib/bytes';
import { apiPaths } from '../paths';
import { apiUrl, HttpError } from './http';
import { resumableUpload, retryDelays, UploadError, type Settle, type TusSettings, type UploadTask } from './upload';

export interface LinkUpload {
  hash: string;
  file: File;
  /** The link's token after its password (protected links), else ''. */
  token: string;
  /** Bytes on the server so far. */
  onProgress: (sent: number) => void;
  /** The name the server stores the file under (it never replaces a file: "name (1).ext"). */
  onStored: (name: string) => void;
}

function storedNameOf(req: HttpRequest, res: HttpResponse): string | null {
  if (req.getMethod() === 'POST' && res.getStatus() === 201) {
    try {
      return (JSON.parse(res.getBody()) as UploadedFile).name;
    } catch {
      return null;
    }
  }
  const header = req.getMethod() === 'PATCH' ? res.getHeader('Upload-Name') : undefined;
  return header ? decodeURIComponent(header) : null;
}

/** Only the server's trouble and a lost connection are worth retrying; a refusal is final. */
function shouldRetry(err: DetailedError): boolean {
  const status = err.originalResponse?.getStatus() ?? 0;
  // 507: the owner's quota is full (beyond.md §6); trying again would not change that.
  return status === 0 || (status >= 500 && status !== 507) || status === 423;
}

function failureOf(err: Error | DetailedError): Error {
  const res = (err as Partial<DetailedError>).originalResponse;
  if (!res) return new UploadError('failed', '000 No connection');
  return new HttpError(res.getStatus(), res.getBody());
}

function linkOptions(req: LinkUpload, settings: TusSettings, settle: Settle): UploadOptions {
  const query = req.token ? `?token=${encodeURIComponent(req.token)}` : '';
  return {
    endpoint: new URL(apiUrl(`${apiPaths.publicTus(req.hash, req.file.name)}${query}`), window.location.href).href,
    chunkSize: settings.chunkSize > 0 ? settings.chunkSize : FALLBACK_CHUNK_SIZE,
    retryDelays: retryDelays(settings.retryCount),
    parallelUploads: 1,
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onAfterResponse: (r, res) => {
      const name = storedNameOf(r, res);
      if (name !== null) req.onStored(name);
    },
    onShouldRetry: shouldRetry,
    onProgress: (sent) => req.onProgress(sent),
    onSuccess: () => settle.resolve(),
    onError: (err) => settle.reject(failureOf(err)),
  };
}

/** Sends one file through an upload link, resuming an unfinished upload of it when there is one. */
export function uploadThroughLink(req: LinkUpload, settings: TusSettings): UploadTask {
  return resumableUpload(req.file, (settle) => linkOptions(req, settings, settle));
}
