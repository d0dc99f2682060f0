import { describe, expect, it } from 'vitest';
import { checkPreconditions, type Validators } from './preconditions';

const mtimeMs = Date.UTC(2024, 4, 1, 12, 0, 0, 500);
const v: Validators = { etag: '"abc"', mtimeMs };
const same = new Date(mtimeMs).toUTCString();
const earlier = new Date(mtimeMs - 5000).toUTCString();
const later = new Date(mtimeMs + 5000).toUTCString();

describe('checkPreconditions', () => {
  it.each([
    ['no conditional headers', 'serve', {}],
    ['If-None-Match with the current tag', 'not-modified', { 'if-none-match': '"abc"' }],
    ['If-None-Match with the weak form of the tag', 'not-modified', { 'if-none-match': 'W/"abc"' }],
    ['If-None-Match listing the tag among others', 'not-modified', { 'if-none-match': '"x", "abc"' }],
    ['If-None-Match: *', 'not-modified', { 'if-none-match': '*' }],
    ['If-None-Match with another tag', 'serve', { 'if-none-match': '"other"' }],
    ['If-None-Match with another tag and a matching date', 'serve', { 'if-none-match': '"other"', 'if-modified-since': same }],
    ['If-Modified-Since equal to the mtime (in seconds)', 'not-modified', { 'if-modified-since': same }],
    ['If-Modified-Since after the mtime', 'not-modified', { 'if-modified-since': later }],
    ['If-Modified-Since before the mtime', 'serve', { 'if-modified-since': earlier }],
    ['an unparseable If-Modified-Since', 'serve', { 'if-modified-since': 'yesterday-ish' }],
    ['If-Match with the current tag', 'serve', { 'if-match': '"abc"' }],
    ['If-Match: *', 'serve', { 'if-match': '*' }],
    ['If-Match with the weak tag (strong comparison)', 'failed', { 'if-match': 'W/"abc"' }],
    ['If-Match with another tag', 'failed', { 'if-match': '"zzz"' }],
    ['If-Unmodified-Since before the mtime', 'failed', { 'if-unmodified-since': earlier }],
    ['If-Unmodified-Since equal to the mtime', 'serve', { 'if-unmodified-since': same }],
  ])('with %s the outcome is %s', (_name, kind, headers) => {
    expect(checkPreconditions(headers, v).kind).toBe(kind);
  });

  it.each([
    ['no If-Range', 'bytes=0-1', {}],
    ['If-Range with the current tag', 'bytes=0-1', { 'if-range': '"abc"' }],
    ['If-Range with a weak tag', undefined, { 'if-range': 'W/"abc"' }],
    ['If-Range with another tag', undefined, { 'if-range': '"old"' }],
    ['If-Range with the exact date', 'bytes=0-1', { 'if-range': same }],
    ['If-Range with an earlier date', undefined, { 'if-range': earlier }],
    ['If-Range that is neither tag nor date', undefined, { 'if-range': 'garbage' }],
  ])('with %s the range kept is %j', (_name, range, headers) => {
    expect(checkPreconditions({ range: 'bytes=0-1', ...headers }, v)).toEqual({ kind: 'serve', range });
  });

  it('ignores date conditions for a file dated at the epoch', () => {
    expect(checkPreconditions({ 'if-modified-since': later }, { etag: '"e"', mtimeMs: 0 }).kind).toBe('serve');
  });
});
