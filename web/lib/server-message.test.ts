import { describe, expect, it } from 'vitest';
import { messageOf, serverMessageText, statusLineText } from './server-message';

const bad = (message: string): string => `400 Bad Request (${message})\n`;

describe('serverMessageText', () => {
  it.each([
    ['password is too short, minimum length is 12', { key: 'serverErrors.passwordTooShort', values: { min: 12 } }],
    ['password is too long, maximum length is 72 bytes', { key: 'serverErrors.passwordTooLong', values: { max: 72 } }],
    ['permission to share requires permission to download', { key: 'serverErrors.shareNeedsDownload' }],
    ['username "a/b" cannot name a home directory', { key: 'serverErrors.usernameNotHome' }],
    ['rule 2 has no regular expression', { key: 'serverErrors.ruleNoRegex', values: { n: 3 } }],
    ['invalid regular expression in rule 0: Unterminated group', { key: 'serverErrors.ruleBadRegex', values: { n: 1 } }],
    ['cannot upload to a directory /srv/files/a', { key: 'serverErrors.uploadOntoFolder' }],
    ['source is parent', { key: 'serverErrors.intoItself' }],
    ['branding.issueTracker must be an http:// or https:// address, or empty', { key: 'serverErrors.issueTrackerInvalid' }],
    ['invalid files selection: NUL in a name', { key: 'serverErrors.invalidPath' }],
    ['not an SRT subtitle file: no cue with a valid timing line', { key: 'serverErrors.notSubtitle' }],
    ['invalid expires "99999999999": at most 2147483647', { key: 'serverErrors.expiresTooLong' }],
    ['failed to decode body: Unexpected token', { key: 'serverErrors.badRequest' }],
  ])('a 400 saying %j reads %o', (message, expected) => {
    expect(serverMessageText(400, bad(message))).toEqual(expected);
  });

  it('reads a status without a message by its status, never its raw line', () => {
    expect(serverMessageText(413, '413 Payload Too Large\n')).toEqual({ key: 'serverErrors.tooLarge' });
    expect(serverMessageText(502, '502 Bad Gateway\n')).toEqual({ key: 'errors.internal' });
    expect(serverMessageText(400, '400 Bad Request\n')).toEqual({ key: 'serverErrors.badRequest' });
  });

  it('takes the message out of the status line, parentheses inside included', () => {
    expect(messageOf('400 Bad Request (a (b) c)\n')).toBe('a (b) c');
    expect(messageOf('403 Forbidden\n')).toBeUndefined();
  });
});

describe('statusLineText', () => {
  it.each([
    ['413 Payload Too Large', { key: 'serverErrors.tooLarge' }],
    ['000 No connection', { key: 'errors.connection' }],
    ['400 Bad Request (invalid upload offset)', { key: 'serverErrors.badRequest' }],
    ['507 Insufficient Storage\n', { key: 'serverErrors.noSpace' }],
    ['tus: failed to read the file', { key: 'errors.internal' }],
  ])('reads %j as %o', (line, expected) => {
    expect(statusLineText(line)).toEqual(expected);
  });
});
