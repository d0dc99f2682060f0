import type { ParseKeys } from 'i18next';

/** A translated sentence: its key and the numbers it names. */
export interface ServerMessageText {
  key: ParseKeys;
  values?: Record<string, number>;
}

/**
 * THE table of what a status means to a person when the server's answer says no more (api.md
 * §1.6: only a 400 carries a message). Status 0 is the connection error; any status not here
 * reads as the internal error.
 */
const STATUS_KEYS: ReadonlyMap<number, ParseKeys> = new Map<number, ParseKeys>([
  [0, 'errors.connection'],
  [400, 'serverErrors.badRequest'],
  [401, 'serverErrors.unauthorized'],
  [403, 'errors.forbidden'],
  [404, 'errors.notFound'],
  [405, 'serverErrors.notAllowed'],
  [409, 'serverErrors.conflict'],
  [412, 'serverErrors.changed'],
  [413, 'serverErrors.tooLarge'],
  [415, 'serverErrors.unsupported'],
  [416, 'serverErrors.range'],
  [429, 'serverErrors.tooMany'],
  [501, 'serverErrors.notImplemented'],
  [507, 'serverErrors.noSpace'],
]);

type Row = readonly [pattern: RegExp, key: ParseKeys, values?: (match: RegExpExecArray) => Record<string, number>];

/** Rule numbers are 0-based on the wire, 1-based on screen. */
const ruleNumber = (m: RegExpExecArray): Record<string, number> => ({ n: Number(m[1]) + 1 });

/**
 * Every 400 message of the server a person can act on (server/errors.ts catalogue; the messages
 * are the AppError texts of server/ and api.md §1.6), as a translation key. Messages about a
 * malformed request the app itself built (a bad body, a tus header, a preview size ...) tell a
 * person nothing more than "refused", so they read as the 400's generic text.
 */
const MESSAGES: readonly Row[] = [
  [/^password is too short, minimum length is (\d+)$/, 'serverErrors.passwordTooShort', (m) => ({ min: Number(m[1]) })],
  [/^password is too easy$/, 'serverErrors.passwordTooEasy'],
  [/^password is empty$/, 'serverErrors.passwordEmpty'],
  [/^password is too long, maximum length is (\d+) bytes$/, 'serverErrors.passwordTooLong', (m) => ({ max: Number(m[1]) })],
  [/^the current password is incorrect$/, 'serverErrors.wrongCurrentPassword'],
  [/^permission to share requires permission to download$/, 'serverErrors.shareNeedsDownload'],
  [/^username is empty$/, 'serverErrors.usernameEmpty'],
  [/^username .* cannot name a home directory$/, 'serverErrors.usernameNotHome'],
  [/^branding\.files must not lie inside the served root$/, 'serverErrors.brandingInsideRoot'],
  [/^branding\.issueTracker must be an http:\/\/ or https:\/\/ address, or empty$/, 'serverErrors.issueTrackerInvalid'],
  [/^(rules must be a list|rule \d+ is not an object)$/, 'serverErrors.rulesInvalid'],
  [/^rule (\d+) has no regular expression$/, 'serverErrors.ruleNoRegex', ruleNumber],
  [/^invalid regular expression in rule (\d+):/, 'serverErrors.ruleBadRegex', ruleNumber],
  [/^cannot upload to a directory/, 'serverErrors.uploadOntoFolder'],
  [/^path is not a directory$/, 'serverErrors.notAFolder'],
  [/^path is a directory$/, 'serverErrors.isAFolder'],
  [/^source is parent$/, 'serverErrors.intoItself'],
  [/^cannot copy onto itself$/, 'serverErrors.ontoItself'],
  [/^cannot copy a symlink to a directory$/, 'serverErrors.copyLinkedFolder'],
  [/^cannot copy a special file$/, 'serverErrors.copySpecial'],
  [/^file name too long$/, 'serverErrors.nameTooLong'],
  [/^(invalid path|invalid destination|invalid files selection: .*)$/, 'serverErrors.invalidPath'],
  [/^cross-device link$/, 'serverErrors.crossDevice'],
  [/^(not an? .*subtitle file|a directory is not a subtitle file|subtitle file is not valid .*)/, 'serverErrors.notSubtitle'],
  [/^invalid expires ".*": at most \d+$/, 'serverErrors.expiresTooLong'],
  [/^unsupported archive format /, 'serverErrors.archiveFormat'],
];

/** The message of a 400 answer, "400 Bad Request (the message)" (api.md §1.6), or undefined. */
export function messageOf(body: string): string | undefined {
  return /^400 [^(]*\((.*)\)\s*$/s.exec(body.trim())?.[1];
}

/** The translated text for a failed answer: its message's sentence when known, else its status's. */
export function serverMessageText(status: number, body = ''): ServerMessageText {
  const message = status === 400 ? messageOf(body) : undefined;
  if (message !== undefined) {
    for (const [pattern, key, values] of MESSAGES) {
      const match = pattern.exec(message);
      if (match) return values ? { key, values: values(match) } : { key };
    }
  }
  return { key: statusText(status) };
}

/** The generic text of a status (no message). */
export function statusText(status: number): ParseKeys {
  return STATUS_KEYS.get(status) ?? 'errors.internal';
}

/**
 * The translated text for an answer known only by its status line ("413 Payload Too Large",
 * "000 No connection" when the network failed), as a failed upload reports it; any other text
 * (an error of the browser's upload client) reads as the internal error.
 */
export function statusLineText(line: string): ServerMessageText {
  const status = /^(\d{3})\b/.exec(line.trim())?.[1];
  return status === undefined ? { key: 'errors.internal' } : serverMessageText(Number(status), line);
}
