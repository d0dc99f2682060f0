import { Type, type Static } from '@sinclair/typebox';
import { nullableArray, PermissionsSchema, RuleSchema, SortingSchema } from './user';
import { TrashSettingsSchema } from './trash';

/** Defaults given to new users (api.md §3.3). */
export const UserDefaultsSchema = Type.Object({
  scope: Type.String(),
  locale: Type.String(),
  viewMode: Type.String(),
  singleClick: Type.Boolean(),
  redirectAfterCopyMove: Type.Boolean(),
  sorting: SortingSchema,
  perm: PermissionsSchema,
  commands: Type.Array(Type.String()),
  hideDotfiles: Type.Boolean(),
  dateFormat: Type.Boolean(),
  aceEditorTheme: Type.String(),
});

export const BrandingSchema = Type.Object({
  name: Type.String(),
  disableExternal: Type.Boolean(),
  disableUsedPercentage: Type.Boolean(),
  files: Type.String(),
  theme: Type.String(),
  color: Type.String(),
  /** filemgr's addition: where "Report Issue" leads, an http(s) address; '' = no link. */
  issueTracker: Type.String(),
});

export const TusSettingsSchema = Type.Object({
  chunkSize: Type.Integer({ minimum: 0 }),
  retryCount: Type.Integer({ minimum: 0, maximum: 65535 }),
});

/**
 * GET /api/settings (api.md §3.3). The signing key, logout page and file modes are not part of it,
 * so the serialiser can never emit them.
 */
export const SettingsSchema = Type.Object({
  signup: Type.Boolean(),
  hideLoginButton: Type.Boolean(),
  createUserDir: Type.Boolean(),
  minimumPasswordLength: Type.Integer({ minimum: 0 }),
  userHomeBasePath: Type.String(),
  defaults: UserDefaultsSchema,
  authMethod: Type.String(),
  rules: Type.Array(RuleSchema),
  branding: BrandingSchema,
  tus: TusSettingsSchema,
  shell: Type.Array(Type.String()),
  commands: Type.Record(Type.String(), Type.Array(Type.String())),
  /** filemgr's addition: days the activity log keeps its entries (beyond.md §8). */
  activityDays: Type.Integer(),
  /** beyond.md §4.2: users without two-factor sign-in are sent to enrolment after signing in. */
  requireTotp: Type.Boolean(),
  /** filemgr's addition: the recycle bin (beyond.md §3). */
  trash: TrashSettingsSchema,
});

/** PUT /api/settings: the same shape; missing fields are zero values, null lists empty. */
export const SettingsInputSchema = Type.Object({
  signup: Type.Optional(Type.Boolean()),
  hideLoginButton: Type.Optional(Type.Boolean()),
  createUserDir: Type.Optional(Type.Boolean()),
  minimumPasswordLength: Type.Optional(Type.Integer({ minimum: 0 })),
  userHomeBasePath: Type.Optional(Type.String()),
  defaults: Type.Optional(Type.Partial(Type.Object({
    ...UserDefaultsSchema.properties,
    sorting: Type.Partial(SortingSchema),
    perm: Type.Partial(PermissionsSchema),
    commands: nullableArray(Type.String()),
  }))),
  authMethod: Type.Optional(Type.String()),
  rules: Type.Optional(nullableArray(RuleSchema)),
  branding: Type.Optional(Type.Partial(BrandingSchema)),
  tus: Type.Optional(Type.Partial(TusSettingsSchema)),
  shell: Type.Optional(nullableArray(Type.String())),
  commands: Type.Optional(Type.Unsafe<Record<string, string[] | null> | null>({ type: ['object', 'null'], additionalProperties: nullableArray(Type.String()) })),
  /** Kept when missing (filebrowser's clients do not know it). */
  activityDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
  requireTotp: Type.Optional(Type.Boolean()),
  /** Kept as it is when missing (filebrowser's clients do not know it). */
  trash: Type.Optional(Type.Partial(TrashSettingsSchema)),
});

export type SettingsView = Static<typeof SettingsSchema>;
export type SettingsInput = Static<typeof SettingsInputSchema>;
