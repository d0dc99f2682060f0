import { HttpError } from '../../api/http';

export type LoginError =
  | { key: 'wrongCredentials' | 'passwordsDontMatch' | 'usernameTaken' | 'tooManyAttempts' }
  | { key: 'passwordTooShort'; min: number }
  | { key: 'connection' }
  | { key: 'otpRequired' | 'wrongCode' };

/**
 * The message for a failed login or sign-up (product.md §5): 409 is a taken name, a 400 naming
 * the minimum length says so (api.md §1.6), 429 is the throttle (api.md §14), status 0 the
 * network; anything else is 'Wrong credentials'.
 */
export function loginError(error: unknown): LoginError {
  if (!(error instanceof HttpError)) return { key: 'wrongCredentials' };
  if (error.status === 0) return { key: 'connection' };
  if (error.status === 409) return { key: 'usernameTaken' };
  if (error.status === 429) return { key: 'tooManyAttempts' };
  // beyond.md §4.2: the password was right and a two-factor code is needed; a plain 401 is a wrong code.
  if (error.status === 401) return { key: error.headers?.get('X-Filemgr-Otp') === 'required' ? 'otpRequired' : 'wrongCode' };
  const min = /minimum length is (\d+)/.exec(error.body)?.[1];
  if (error.status === 400 && min) return { key: 'passwordTooShort', min: Number(min) };
  return { key: 'wrongCredentials' };
}
