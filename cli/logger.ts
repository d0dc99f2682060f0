import type { FastifyServerOptions } from 'fastify';
import { requestSerializers } from '../server/lib/log-redact';
import { fsReason } from './fs-errors';
import { openLogFile } from './log-file';
import { textLogStream } from './log-text';
import { CliError, type CliIO, type OutStream } from './io';

export interface LogTarget {
  /** Fastify's logger option: pino writing to the chosen stream, or false (discard). */
  options: FastifyServerOptions['logger'];
  close(): void;
}

/** --logFormat: text or json, or auto (text when the log goes to a terminal, json otherwise). */
export type LogFormat = 'auto' | 'text' | 'json';

const FORMATS: readonly LogFormat[] = ['auto', 'text', 'json'];

/** The --logFormat value (the flag table restricts it to these choices already). */
export function logFormatOf(value: string): LogFormat {
  const format = FORMATS.find((f) => f === value);
  if (format === undefined) throw new CliError(`unknown log format ${JSON.stringify(value)}: expected ${FORMATS.join(', ')}`);
  return format;
}

function pinoOptions(stream: OutStream, format: LogFormat): FastifyServerOptions['logger'] {
  const text = format === 'text' || (format === 'auto' && stream.isTTY === true);
  return { level: 'info', stream: text ? textLogStream(stream) : stream, serializers: requestSerializers };
}

/** The log destination of --log: stdout, stderr, "" (discard) or a rotated file; in the --logFormat asked for. */
export function logTarget(log: string, io: CliIO, format: LogFormat = 'auto'): LogTarget {
  if (log === '') return { options: false, close: () => undefined };
  if (log === 'stdout') return { options: pinoOptions(io.stdout, format), close: () => undefined };
  if (log === 'stderr') return { options: pinoOptions(io.stderr, format), close: () => undefined };
  try {
    const file = openLogFile(log);
    return { options: pinoOptions(file, format), close: () => file.close() };
  } catch (err) {
    throw new CliError(`cannot open the log file ${log}: ${fsReason(err)}`);
  }
}
