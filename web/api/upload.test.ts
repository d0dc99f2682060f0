import { describe, expect, it } from 'vitest';
import { retryDelays, tusFile, UploadError } from './upload';

describe('tus retry delays', () => {
  it.each([
    [0, []],
    [-1, []],
    [1, [1000]],
    [5, [1000, 2000, 4000, 8000, 16_000]],
    [7, [1000, 2000, 4000, 8000, 16_000, 20_000, 20_000]],
  ])('with a retry count of %s are %j', (count, expected) => {
    expect(retryDelays(count)).toEqual(expected);
  });
});

describe('upload errors', () => {
  it.each([
    [new UploadError('aborted'), '001 Connection aborted'],
    [new UploadError('create'), 'Failed to create an upload'],
    [new UploadError('failed', '500 Internal Server Error'), 'Upload failed: 500 Internal Server Error'],
  ])('say the catalogue\'s text: %s', (error, message) => {
    expect(error.message).toBe(message);
  });
});

describe('tusFile', () => {
  it('fails with the missing-settings message when the page has no tus settings', async () => {
    const task = tusFile({ path: '/a.txt', file: new File(['a'], 'a.txt'), overwrite: false, onProgress: () => undefined }, undefined);
    await expect(task.done).rejects.toThrow('The resumable upload settings are not defined');
  });
});
