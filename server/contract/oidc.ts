import { Type, type Static } from '@sinclair/typebox';

/** GET /api/auth/oidc/login: where to land once signed in (an app path; anything else lands on the root). */
export const OidcLoginQuerySchema = Type.Object({ redirect: Type.Optional(Type.String({ maxLength: 4096 })) });
export type OidcLoginQuery = Static<typeof OidcLoginQuerySchema>;

/** GET /api/auth/oidc/callback: the provider's authorization response (RFC 6749 §4.1.2). */
export const OidcCallbackQuerySchema = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  state: Type.Optional(Type.String({ maxLength: 512 })),
  error: Type.Optional(Type.String({ maxLength: 512 })),
});
export type OidcCallbackQuery = Static<typeof OidcCallbackQuerySchema>;

/** POST /api/auth/oidc/token: the one-time code the callback put in the app's URL fragment. */
export const OidcTokenBodySchema = Type.Object({ code: Type.String({ minLength: 1, maxLength: 128 }) });
export type OidcTokenBody = Static<typeof OidcTokenBodySchema>;

/** POST /api/auth/oidc/logout: where to send the browser next ('' = the login page). */
export const OidcLogoutReplySchema = Type.Object({ url: Type.String() });
export type OidcLogoutReply = Static<typeof OidcLogoutReplySchema>;
