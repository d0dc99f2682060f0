import { describe, expect, it } from 'vitest';
import { HttpError } from '../../api/http';
import { loginError } from './login-error';

describe('loginError', () => {
  it.each([
    [new HttpError(403, '403 Forbidden\n'), { key: 'wrongCredentials' }],
    [new HttpError(409, '409 Conflict\n'), { key: 'usernameTaken' }],
    [new HttpError(429, '429 Too Many Requests\n'), { key: 'tooManyAttempts' }],
    [new HttpError(400, '400 Bad Request (password is too short, minimum length is 12)\n'), { key: 'passwordTooShort', min: 12 }],
    [new HttpError(400, '400 Bad Request (password is too easy)\n'), { key: 'wrongCredentials' }],
    [new HttpError(500, '500 Internal Server Error\n'), { key: 'wrongCredentials' }],
    [new HttpError(0, ''), { key: 'connection' }],
    [new Error('token malformed'), { key: 'wrongCredentials' }],
  ])('%s -> %j', (error, expected) => {
    expect(loginError(error)).toEqual(expected);
  });
});
