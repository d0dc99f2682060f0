import type { OutStream } from './io';

const LEVELS: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Fields shown in their own place, or not at all (pid and hostname say nothing on one machine). */
const PLACED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'err']);

interface Entry {
  level?: number;
  time?: number;
  msg?: string;
  req?: { method?: string; url?: string; remoteAddress?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
  [field: string]: unknown;
}

const two = (n: number): string => String(n).padStart(2, '0');

/** Local time as 2025-01-31 14:05:09: the admin reads it next to their own clock. */
function localTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

function requestPart(e: Entry): string {
  const { req, res } = e;
  if (!req) return e.msg ?? '';
  const time = e.responseTime === undefined ? '' : ` ${e.responseTime} ms`;
  const status = res?.statusCode === undefined ? '' : ` ${res.statusCode}`;
  // "request completed" says nothing the status does not; other messages ("request errored") stay.
  const note = e.msg && e.msg !== 'request completed' ? ` (${e.msg})` : '';
  return `${req.method ?? ''} ${req.url ?? ''}${status}${time} from ${req.remoteAddress ?? '?'}${note}`;
}

function extras(e: Entry): string {
  const pairs = Object.entries(e).filter(([k]) => !PLACED.has(k)).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return pairs.length === 0 ? '' : ` ${pairs.join(' ')}`;
}

/**
 * One pino JSON line as a line for people: local time, level, the message (for a request:
 * method, URL, status, time, client), other fields as key=value, an error's stack indented
 * below. A line that is not JSON passes through unchanged.
 */
export function textLine(json: string): string {
  let e: Entry;
  try {
    e = JSON.parse(json) as Entry;
  } catch {
    return json;
  }
  const level = (LEVELS[e.level ?? 30] ?? String(e.level)).padEnd(5);
  const when = typeof e.time === 'number' ? `${localTime(e.time)} ` : '';
  const stack = e.err?.stack ? `\n    ${e.err.stack.split('\n').join('\n    ')}` : e.err?.message ? `: ${e.err.message}` : '';
  return `${when}${level} ${requestPart(e)}${extras(e)}${stack}`;
}

/** A stream that turns the JSON lines written to it into text lines for `out`. */
export function textLogStream(out: OutStream): OutStream {
  return {
    write(chunk: string): unknown {
      const lines = String(chunk).split('\n').filter((l) => l !== '');
      return out.write(lines.map((l) => `${textLine(l)}\n`).join(''));
    },
  };
}
