import { Type, type Static } from '@sinclair/typebox';
import { PermissionsSchema } from './user';

/** POST /api/tokens (beyond.md §4.1): `expiresInDays` 0 = never; `perm` missing = the caller's rights. */
export const NewTokenSchema = Type.Object({
  name: Type.String({ maxLength: 1000 }),
  expiresInDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 36500 })),
  perm: Type.Optional(Type.Partial(PermissionsSchema)),
});

/** A token as listed: never its secret or hash; times are ISO 8601, null = never. */
export const TokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  created: Type.String(),
  expires: Type.Union([Type.String(), Type.Null()]),
  lastUsed: Type.Union([Type.String(), Type.Null()]),
  perm: PermissionsSchema,
});

/** The answer to POST /api/tokens: the token itself, shown this once. */
export const CreatedTokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  token: Type.String(),
  created: Type.String(),
  expires: Type.Union([Type.String(), Type.Null()]),
  lastUsed: Type.Union([Type.String(), Type.Null()]),
  perm: PermissionsSchema,
});

export const TokenListSchema = Type.Array(TokenSchema);

export type NewTokenBody = Static<typeof NewTokenSchema>;
export type TokenView = Static<typeof TokenSchema>;
export type CreatedTokenView = Static<typeof CreatedTokenSchema>;
