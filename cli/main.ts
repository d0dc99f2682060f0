import { processIo } from './io';
import { run } from './run';

// The executable's entry point: one command line, one exit code. Exiting explicitly (rather than
// waiting for the event loop to drain) ends the process even if a library left a handle open;
// stdout and stderr are synchronous for files and pipes on Linux, so nothing is lost.
void run(process.argv.slice(2), process.env, processIo()).then((code) => process.exit(code));
