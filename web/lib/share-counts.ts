import type { Share } from '@contract/share';

/** The translation keys and values of a link's counts (beyond.md §2), for the caller's `t`. */
export interface CountText {
  key: 'fileRequest.downloadsOf' | 'fileRequest.downloadsCount' | 'fileRequest.uploadsCount';
  values: { count: number; limit?: number };
}

/** What a link's counts say: "downloads / limit", the downloads of an unlimited link, or the files received. */
export function shareCounts(link: Pick<Share, 'kind' | 'downloads' | 'maxDownloads' | 'uploads'>): CountText {
  if (link.kind === 'upload') return { key: 'fileRequest.uploadsCount', values: { count: link.uploads } };
  if (link.maxDownloads > 0) return { key: 'fileRequest.downloadsOf', values: { count: link.downloads, limit: link.maxDownloads } };
  return { key: 'fileRequest.downloadsCount', values: { count: link.downloads } };
}
