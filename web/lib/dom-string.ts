// Strings handed to the DOM from long-lived data.
//
// Chromium turns a string that has lived through a collection (in V8's old generation) into an
// "external" string the first time the DOM takes it: V8 then tracks it, for good, in a table that
// every full collection walks. Scrolling through a folder of 100,000 items handed over each item's
// name, path and date, and by the end those 300,000 entries added several milliseconds to every
// full-collection pause, inside scroll frames. A fresh copy is young: the DOM copies its characters
// and V8 has nothing to keep.

/** A new string with the same characters as `value` (which itself is left as it is). */
export function domString(value: string): string {
  // A concatenation, flattened by the slice: a new young string, never `value` itself (an empty
  // concatenation or a whole-length slice would give back `value`).
  return ` ${value}`.slice(1);
}
