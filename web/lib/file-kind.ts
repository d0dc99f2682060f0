// What kind of file a name is, for its icon: the server's type (api.md §5.5) knows media, PDF
// and text; the extension tells code, Markdown, archives and office documents apart.

export type FileKind =
  | 'folder' | 'image' | 'audio' | 'video' | 'pdf' | 'archive' | 'code' | 'markdown'
  | 'spreadsheet' | 'presentation' | 'document' | 'text' | 'file';

const EXTENSIONS: readonly [FileKind, string][] = [
  ['archive', 'zip tar gz tgz bz2 tbz2 xz txz lz4 zst sz 7z rar iso dmg deb rpm apk jar war cab'],
  ['code', 'js mjs cjs jsx ts tsx c h cc cpp cxx hh hpp cs go rs py rb php java kt kts swift scala sh bash zsh fish ps1 bat lua pl r sql css scss sass less html htm xml vue svelte json jsonc yaml yml toml ini conf dockerfile makefile'],
  ['markdown', 'md markdown mdown mkd mdx'],
  ['spreadsheet', 'csv tsv xls xlsx xlsm ods numbers'],
  ['presentation', 'ppt pptx odp key'],
  ['document', 'doc docx odt rtf pages epub'],
  ['text', 'txt text log'],
];

const BY_EXTENSION: ReadonlyMap<string, FileKind> = new Map(
  EXTENSIONS.flatMap(([kind, list]) => list.split(' ').map((extension): [string, FileKind] => [extension, kind])),
);

/** The server's types that decide the kind alone, whatever the extension says. */
const BY_TYPE: Partial<Record<string, FileKind>> = { image: 'image', audio: 'audio', video: 'video', pdf: 'pdf' };

/** The file's extension in lower case ('' for none); names like `Makefile` count as their own extension. */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(dot + 1) : name).toLowerCase();
}

/**
 * The kind of an item named `name` whose server type is `type`. Media and PDF follow the server;
 * a few extensions it takes for media are code here (`.ts` is video/mp2t in mime.types).
 */
export function fileKind(name: string, type: string, isDir: boolean): FileKind {
  if (isDir) return 'folder';
  const byName = BY_EXTENSION.get(extensionOf(name));
  if (byName === 'code' || byName === 'markdown') return byName;
  return BY_TYPE[type] ?? byName ?? (type === 'text' || type === 'textImmutable' ? 'text' : 'file');
}
