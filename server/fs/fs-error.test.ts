import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { errnoCode, fsError, parentError } from './fs-error';

const errno = (code: string) => Object.assign(new Error(code), { code });

describe('fsError', () => {
  it.each([
    ['EACCES', 403],
    ['EPERM', 403],
    ['ELOOP', 403],
    ['ENOENT', 404],
    ['ENOTDIR', 404],
    ['EEXIST', 409],
    ['ENOTEMPTY', 409],
    ['EBUSY', 409],
    ['EISDIR', 400],
    ['ENAMETOOLONG', 400],
    ['EINVAL', 400],
    ['ENOSPC', 507],
    ['EDQUOT', 507],
  ])('maps %s to %i', (code, status) => {
    const e = fsError(errno(code));
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).status).toBe(status);
  });

  it('passes AppErrors through and leaves unknown failures for the 500 handler', () => {
    const app = new AppError('forbidden');
    expect(fsError(app)).toBe(app);
    const odd = errno('EMFILE');
    expect(fsError(odd)).toBe(odd);
    expect(fsError('text')).toBeInstanceOf(Error);
  });

  it('reads the code of an errno error only', () => {
    expect(errnoCode(errno('ENOENT'))).toBe('ENOENT');
    expect(errnoCode(new Error('x'))).toBeUndefined();
    expect(errnoCode(null)).toBeUndefined();
  });

  it.each([
    ['EEXIST', 404],
    ['ENOTDIR', 404],
    ['EACCES', 403],
  ])('maps %s from a mkdir -p of a parent to %i (a file in the way means the path cannot exist)', (code, status) => {
    expect((parentError(errno(code)) as AppError).status).toBe(status);
  });
});
