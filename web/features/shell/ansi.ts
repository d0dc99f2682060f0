// Terminal escape sequences: CSI (colours, cursor moves) and OSC (titles, links), plus stray ESCs.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]/g;

/** The text of a line of output without its ANSI escape codes (product.md §2 'Shell panel'). */
export function stripAnsi(line: string): string {
  return line.replace(ESCAPES, '');
}
