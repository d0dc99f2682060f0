import { atom } from 'jotai';
import type { UploadLinkInfo } from '@contract/share';
import type { TusSettings } from '../../api/upload';
import { uploadThroughLink } from '../../api/upload-link';
import { failureText, type NoticeText } from '../../lib/notice';

/** One file a visitor sends through an upload link, in the order chosen. */
export interface LinkFile {
  id: number;
  /** The name it was sent as. */
  name: string;
  size: number;
  /** Bytes on the server. */
  sent: number;
  status: 'waiting' | 'sending' | 'done' | 'failed';
  /** The name the server stored it under (a taken name gets " (1)"). */
  stored: string;
  error?: NoticeText;
}

/** The files of this visit: waiting, being sent, received or failed (beyond.md §2). */
export const linkFilesAtom = atom<LinkFile[]>([]);

let nextId = 1;

function change(id: number, patch: Partial<LinkFile>) {
  return (files: LinkFile[]): LinkFile[] => files.map((f) => (f.id === id ? { ...f, ...patch } : f));
}

/** What sending needs: the link, its token after the password, the tus settings of the page. */
export interface SendTarget {
  link: UploadLinkInfo;
  hash: string;
  settings: TusSettings;
}

/** A chain that sends one file at a time, in the order the files were chosen. */
let queue: Promise<void> = Promise.resolve();

/** Adds files to the visit's list and sends them one after another through the link's tus. */
export const sendFilesAtom = atom(null, (_get, set, { files, target }: { files: readonly File[]; target: SendTarget }) => {
  const added = files.map((file): LinkFile & { file: File } => ({ id: nextId++, name: file.name, size: file.size, sent: 0, status: 'waiting', stored: file.name, file }));
  set(linkFilesAtom, (list) => [...list, ...added.map(({ file: _file, ...entry }) => entry)]);
  for (const entry of added) {
    queue = queue.then(async () => {
      set(linkFilesAtom, change(entry.id, { status: 'sending' }));
      const task = uploadThroughLink(
        {
          hash: target.hash,
          file: entry.file,
          token: target.link.token ?? '',
          onProgress: (sent) => set(linkFilesAtom, change(entry.id, { sent })),
          onStored: (stored) => set(linkFilesAtom, change(entry.id, { stored })),
        },
        target.settings,
      );
      await task.done.then(
        () => set(linkFilesAtom, change(entry.id, { status: 'done', sent: entry.size })),
        (error: unknown) => set(linkFilesAtom, change(entry.id, { status: 'failed', error: failureText(error, true) })),
      );
    });
  }
});
