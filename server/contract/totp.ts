import { Type, type Static } from '@sinclair/typebox';

/** GET /api/totp: whether the caller has two-factor sign-in on, and whether the server requires it. */
export const TotpStatusSchema = Type.Object({
  enabled: Type.Boolean(),
  required: Type.Boolean(),
  recoveryCodesLeft: Type.Integer(),
});

/** POST /api/totp (beyond.md §4.2): the base32 secret and its otpauth:// address. */
export const TotpEnrolmentSchema = Type.Object({ secret: Type.String(), uri: Type.String() });

export const TotpCodeSchema = Type.Object({ code: Type.String({ maxLength: 100 }) });

/** POST /api/totp/confirm: the ten recovery codes, shown once. */
export const RecoveryCodesSchema = Type.Object({ recoveryCodes: Type.Array(Type.String()) });

/** DELETE /api/totp: a current code (or recovery code), or the current password. */
export const TotpOffSchema = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 100 })),
  current_password: Type.Optional(Type.String({ maxLength: 1000 })),
});

/** DELETE /api/users/{id}/totp: the admin's own current password. */
export const TotpResetSchema = Type.Object({ current_password: Type.Optional(Type.String({ maxLength: 1000 })) });

export type TotpStatus = Static<typeof TotpStatusSchema>;
export type TotpEnrolment = Static<typeof TotpEnrolmentSchema>;
export type RecoveryCodes = Static<typeof RecoveryCodesSchema>;
export type TotpOffBody = Static<typeof TotpOffSchema>;
