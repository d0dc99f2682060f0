import { describe, expect, it } from 'vitest';
import { HttpError } from '../api/http';
import { failureText } from './notice';

describe('failureText', () => {
  it.each([
    [new HttpError(0, ''), false, { key: 'errors.connection' }],
    [new HttpError(403, '403 Forbidden\n'), true, { key: 'errors.forbidden' }],
    [new HttpError(404, '404 Not Found\n'), false, { key: 'errors.notFound' }],
    [new HttpError(400, 'password is too short\n'), false, { key: 'errors.internal' }],
    [new HttpError(400, 'password is too short\n'), true, { text: 'password is too short' }],
    [new Error('boom'), true, { key: 'errors.internal' }],
  ])('%o (server text %s) reads %o', (error, serverText, expected) => {
    expect(failureText(error, serverText)).toEqual(expected);
  });
});
