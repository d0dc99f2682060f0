// The first items of a folder's JSON while the rest of it is still arriving. The server streams a
// folder as `{"items":[{...},{...},...],"numDirs":...}` (items first, api.md §4.3), so the items
// at the front can be shown before the last one has been read from the disk.

const OPEN = '{"items":[';

/** What the text received so far says: wait for more, never (not a folder, or all of it is here), or these items. */
export type FirstItems = { kind: 'wait' } | { kind: 'never' } | { kind: 'items'; json: string; count: number };

const WAIT: FirstItems = { kind: 'wait' };
const NEVER: FirstItems = { kind: 'never' };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The index just past the JSON object that starts at `start`, or -1 when the text ends inside it. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
    } else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) {
      return i + 1;
    }
  }
  return -1;
}

/**
 * The complete items of a folder's JSON text `received` so far, as the text of their array's
 * elements, once there are at least `min` of them and it is sure that more follow (a comma after
 * the last one): a folder whose items have all arrived gives 'never', so it is shown once, whole.
 */
export function firstItems(received: string, min: number): FirstItems {
  if (received.length < OPEN.length) return OPEN.startsWith(received) ? WAIT : NEVER;
  if (!received.startsWith(OPEN)) return NEVER;
  let at = OPEN.length;
  let count = 0;
  // The end of the last item known to have another after it, and how many items that makes.
  let sure = -1;
  let sureCount = 0;
  while (at < received.length) {
    const c = received.charCodeAt(at);
    if (c === CLOSE_BRACKET) return NEVER;
    if (count > 0) {
      if (c !== COMMA) return NEVER;
      sure = at;
      sureCount = count;
      if (++at >= received.length) break;
    }
    if (received.charCodeAt(at) !== OPEN_BRACE) return NEVER;
    const end = objectEnd(received, at);
    if (end < 0) break;
    count++;
    at = end;
  }
  return sureCount >= min ? { kind: 'items', json: received.slice(OPEN.length, sure), count: sureCount } : WAIT;
}
