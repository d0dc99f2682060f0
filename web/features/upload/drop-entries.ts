import { entriesOfFiles, type Entry } from './entries';

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function childrenOf(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  // readEntries answers in batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

function isDirectory(entry: FileSystemEntry): entry is FileSystemDirectoryEntry {
  return entry.isDirectory;
}

async function walk(entry: FileSystemEntry, prefix: string, out: Entry[]): Promise<void> {
  const relPath = `${prefix}${entry.name}`;
  if (!isDirectory(entry)) {
    out.push({ relPath, file: await fileOf(entry as FileSystemFileEntry) });
    return;
  }
  const children = await childrenOf(entry);
  if (children.length === 0) out.push({ relPath, file: null });
  for (const child of children) await walk(child, `${relPath}/`, out);
}

/**
 * What a drop from the desktop holds: folders walked with their tree (where the browser gives
 * directory entries), else the plain files. The entries are taken during the drop event itself:
 * the browser empties the DataTransfer once the event is over.
 */
export function dropEntries(data: DataTransfer): () => Promise<Entry[]> {
  const roots = [...data.items].filter((item) => item.kind === 'file').map((item) => item.webkitGetAsEntry());
  const files = [...data.files];
  return async () => {
    if (roots.length === 0 || roots.some((root) => root === null)) return entriesOfFiles(files);
    const out: Entry[] = [];
    try {
      for (const root of roots) if (root) await walk(root, '', out);
    } catch {
      // An entry the browser cannot read (moved away meanwhile): the plain files still go.
      return entriesOfFiles(files);
    }
    return out;
  };
}
