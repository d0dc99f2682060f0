import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * A list that may also be null (Go encodes an empty slice as null). Written as `type: [array,
 * null]`, not anyOf: Fastify's Ajv coerces types and mangles arrays inside an anyOf.
 */
export const nullableArray = <T extends TSchema>(items: T) => Type.Unsafe<Static<T>[] | null>({ type: ['array', 'null'], items });

/** The eight permission flags of api.md §4.1. */
export const PermissionsSchema = Type.Object({
  admin: Type.Boolean(),
  execute: Type.Boolean(),
  create: Type.Boolean(),
  rename: Type.Boolean(),
  modify: Type.Boolean(),
  delete: Type.Boolean(),
  share: Type.Boolean(),
  download: Type.Boolean(),
});

export const SortingSchema = Type.Object({ by: Type.String(), asc: Type.Boolean() });

/** A rule (api.md §4.2): a path prefix, or with `regex` an RE2-style expression in `regexp.raw`. */
export const RuleSchema = Type.Object({
  regex: Type.Boolean(),
  allow: Type.Boolean(),
  path: Type.String(),
  regexp: Type.Unsafe<{ raw: string } | null>({ type: ['object', 'null'], properties: { raw: Type.String() }, required: ['raw'] }),
});

/**
 * A user as the API answers it (api.md §3.2), in upstream's field order. `password` is the
 * constant "" so a hash can never be serialised, whatever the handler passes.
 */
export const UserSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  password: Type.Literal(''),
  scope: Type.String(),
  locale: Type.String(),
  lockPassword: Type.Boolean(),
  viewMode: Type.String(),
  singleClick: Type.Boolean(),
  redirectAfterCopyMove: Type.Boolean(),
  perm: PermissionsSchema,
  commands: Type.Array(Type.String()),
  sorting: SortingSchema,
  rules: Type.Array(RuleSchema),
  hideDotfiles: Type.Boolean(),
  dateFormat: Type.Boolean(),
  aceEditorTheme: Type.String(),
  /** Bytes (beyond.md §6); 0 = no quota. */
  quota: Type.Integer({ minimum: 0 }),
});

export const UserListSchema = Type.Array(UserSchema);


/** `data` of a user POST/PUT: every field optional, unknown fields ignored. */
export const UserInputSchema = Type.Object({
  id: Type.Optional(Type.Integer({ minimum: 0 })),
  username: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  scope: Type.Optional(Type.String()),
  locale: Type.Optional(Type.String()),
  lockPassword: Type.Optional(Type.Boolean()),
  viewMode: Type.Optional(Type.String()),
  singleClick: Type.Optional(Type.Boolean()),
  redirectAfterCopyMove: Type.Optional(Type.Boolean()),
  perm: Type.Optional(Type.Partial(PermissionsSchema)),
  commands: Type.Optional(nullableArray(Type.String())),
  sorting: Type.Optional(Type.Partial(SortingSchema)),
  rules: Type.Optional(nullableArray(RuleSchema)),
  hideDotfiles: Type.Optional(Type.Boolean()),
  dateFormat: Type.Optional(Type.Boolean()),
  aceEditorTheme: Type.Optional(Type.String()),
  quota: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** The request envelope of POST/PUT /api/users: `{what, which, current_password, data}`. */
export const UserEnvelopeSchema = Type.Object({
  what: Type.Optional(Type.String()),
  which: Type.Optional(nullableArray(Type.String())),
  current_password: Type.Optional(Type.String()),
  data: Type.Optional(UserInputSchema),
});

/** DELETE /api/users/{id} body. */
export const UserDeleteSchema = Type.Object({ current_password: Type.Optional(Type.String()) });

export const UserIdParamsSchema = Type.Object({ id: Type.String({ pattern: '^[0-9]+$' }) });

export type UserView = Static<typeof UserSchema>;
export type UserInput = Static<typeof UserInputSchema>;
export type UserEnvelope = Static<typeof UserEnvelopeSchema>;
export type UserDeleteBody = Static<typeof UserDeleteSchema>;
export type RuleWire = Static<typeof RuleSchema>;
export type PermissionsWire = Static<typeof PermissionsSchema>;
