/**
 * The one error catalogue: every expected failure is `throw new AppError(code, message?)`, and
 * this table gives each code its HTTP status. Only plugins/error-handler.ts writes the response.
 */
export const errorStatus = {
  bad_request: 400,
  unauthorized: 401,
  /** beyond.md §4.2: the password was right, the second factor is missing (sent with X-Filemgr-Otp: required). */
  otp_required: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  exists: 409,
  gone: 410,
  precondition_failed: 412,
  too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  locked: 423,
  too_many_requests: 429,
  internal: 500,
  not_implemented: 501,
  bad_gateway: 502,
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** An expected failure with a stable code; `message` reaches the client only for 400 (api.md §1.6). */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly headers: Readonly<Record<string, string>>;
  /** Whether a caller-supplied message exists (only those are shown, and only for 400). */
  readonly hasMessage: boolean;

  constructor(code: ErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(message ?? code);
    this.name = 'AppError';
    this.code = code;
    this.headers = headers;
    this.hasMessage = message !== undefined;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

/** True for AppError instances, including ones thrown by another copy of this module. */
export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
