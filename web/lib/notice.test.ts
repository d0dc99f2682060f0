import { describe, expect, it } from 'vitest';
import { HttpError } from '../api/http';
import { failureText } from './notice';

describe('failureText', () => {
  it.each([
    [new HttpError(0, ''), false, { key: 'errors.connection' }],
    [new HttpError(403, '403 Forbidden\n'), true, { key: 'errors.forbidden' }],
    [new HttpError(404, '404 Not Found\n'), false, { key: 'errors.notFound' }],
    [new HttpError(409, '409 Conflict\n'), false, { key: 'serverErrors.conflict' }],
    [new HttpError(507, '507 Insufficient Storage\n'), true, { key: 'serverErrors.noSpace' }],
    [new HttpError(400, '400 Bad Request (password is too easy)\n'), false, { key: 'serverErrors.badRequest' }],
    [new HttpError(400, '400 Bad Request (password is too easy)\n'), true, { key: 'serverErrors.passwordTooEasy' }],
    [new HttpError(400, '400 Bad Request (the current password is incorrect)\n'), true, { key: 'serverErrors.wrongCurrentPassword' }],
    [new HttpError(400, '400 Bad Request (something new)\n'), true, { key: 'serverErrors.badRequest' }],
    [new Error('boom'), true, { key: 'errors.internal' }],
  ])('%o (server text %s) reads %o', (error, serverText, expected) => {
    expect(failureText(error, serverText)).toEqual(expected);
  });
});
