import type { FastifyServerOptions } from 'fastify';
import { requestSerializers } from '../server/lib/log-redact';
import { openLogFile } from './log-file';
import { CliError, type CliIO, type OutStream } from './io';
import { fsReason } from './fs-errors';

export interface LogTarget {
  /** Fastify's logger option: pino writing to the chosen stream, or false (discard). */
  options: FastifyServerOptions['logger'];
  close(): void;
}

function pinoOptions(stream: OutStream): FastifyServerOptions['logger'] {
  return { level: 'info', stream, serializers: requestSerializers };
}

/** The log destination of --log: stdout, stderr, "" (discard) or a rotated file. */
export function logTarget(log: string, io: CliIO): LogTarget {
  if (log === '') return { options: false, close: () => undefined };
  if (log === 'stdout') return { options: pinoOptions(io.stdout), close: () => undefined };
  if (log === 'stderr') return { options: pinoOptions(io.stderr), close: () => undefined };
  try {
    const file = openLogFile(log);
    return { options: pinoOptions(file), close: () => file.close() };
  } catch (err) {
    throw new CliError(`cannot open the log file ${log}: ${fsReason(err)}`);
  }
}
