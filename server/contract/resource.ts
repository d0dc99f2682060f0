import { Type, type Static } from '@sinclair/typebox';

/**
 * Wire shapes of /api/resources, /api/resources/recursive and /api/usage (api.md §3.4-§3.10,
 * §4.3, §4.4). Field order is upstream's: a directory answers items, numDirs, numFiles and
 * sorting first; a file has none of those four keys.
 */

/** Every `type` a FileInfo can have ('' for directories). */
export const FILE_TYPES = ['', 'video', 'audio', 'image', 'pdf', 'text', 'textImmutable', 'blob', 'invalid_link', 'stl', 'obj'] as const;
export type FileTypeName = (typeof FILE_TYPES)[number];

// A string enum rather than a union of literals: the serializer then writes it as a plain string
// instead of trying eleven alternatives per item of a 100,000-item listing.
export const FileTypeSchema = Type.Unsafe<FileTypeName>({ type: 'string', enum: [...FILE_TYPES] });

const fileFields = {
  path: Type.String(),
  name: Type.String(),
  size: Type.Number(),
  extension: Type.String(),
  modified: Type.String(),
  mode: Type.Number(),
  isDir: Type.Boolean(),
  isSymlink: Type.Boolean(),
  type: FileTypeSchema,
  subtitles: Type.Optional(Type.Array(Type.String())),
  content: Type.Optional(Type.String()),
  checksums: Type.Optional(Type.Record(Type.String(), Type.String())),
  token: Type.Optional(Type.String()),
};

/** One file or directory (an item of a listing has the same fields, never content). */
export const FileInfoSchema = Type.Object(fileFields);
export type FileInfo = Static<typeof FileInfoSchema>;

/** GET /api/resources answers: a directory with its listing, or a single file. */
export const ResourceSchema = Type.Object({
  items: Type.Optional(Type.Array(FileInfoSchema)),
  numDirs: Type.Optional(Type.Integer()),
  numFiles: Type.Optional(Type.Integer()),
  sorting: Type.Optional(Type.Object({ by: Type.String(), asc: Type.Boolean() })),
  ...fileFields,
});
export type Resource = Static<typeof ResourceSchema>;

/** One entry of GET /api/resources/recursive (api.md §3.5). */
export const RecursiveEntrySchema = Type.Object({
  path: Type.String(),
  name: Type.String(),
  size: Type.Number(),
  modified: Type.String(),
  isDir: Type.Boolean(),
});
export type RecursiveEntry = Static<typeof RecursiveEntrySchema>;
export const RecursiveListSchema = Type.Array(RecursiveEntrySchema);

/** GET /api/usage (api.md §3.10). */
export const DiskUsageSchema = Type.Object({ total: Type.Number(), used: Type.Number() });
export type DiskUsage = Static<typeof DiskUsageSchema>;

/** Query of GET /api/resources. */
export const ResourceGetQuerySchema = Type.Object({ checksum: Type.Optional(Type.String()) });

/** Query of POST /api/resources: `override=true` replaces an existing file. */
export const ResourcePostQuerySchema = Type.Object({ override: Type.Optional(Type.String()) });

/** Query of PATCH /api/resources (copy / rename). `destination` is URL-encoded twice by the UI. */
export const ResourcePatchQuerySchema = Type.Object({
  action: Type.Optional(Type.String()),
  destination: Type.Optional(Type.String()),
  override: Type.Optional(Type.String()),
  rename: Type.Optional(Type.String()),
});
export type ResourcePatchQuery = Static<typeof ResourcePatchQuerySchema>;
