import { memo } from 'react';
import type { FileKind } from '../lib/file-kind';
import { Icon, type IconName } from './icon';

const ICONS: Record<FileKind, IconName> = {
  folder: 'folder',
  image: 'fileImage',
  audio: 'fileAudio',
  video: 'fileVideo',
  pdf: 'filePdf',
  archive: 'fileArchive',
  code: 'fileCode',
  markdown: 'fileMarkdown',
  spreadsheet: 'fileSpreadsheet',
  presentation: 'filePresentation',
  document: 'fileDocument',
  text: 'fileText',
  file: 'file',
};

/** The icon of a file of kind `kind` (see lib/file-kind.ts), tinted by kind (`kind-<kind>`, listing.css). */
export const FileIcon = memo(function FileIcon({ kind, className }: { kind: FileKind; className: string }) {
  return <Icon name={ICONS[kind]} className={`${className} kind-${kind}`} />;
});
