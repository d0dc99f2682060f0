import { chmod, open } from 'node:fs/promises';
import { ADMIN_PASSWORD_SUFFIX } from '../server/fs/hidden';
import { fsReason } from './fs-errors';
import type { CliIO } from './io';

export interface FirstPassword {
  username: string;
  password: string;
  /** The database file; the password file goes beside it. */
  database: string;
}

/** The file beside the database that holds the first admin password when no terminal shows it. */
export function adminPasswordFile(database: string): string {
  return `${database}${ADMIN_PASSWORD_SUFFIX}`;
}

async function writeSecret(path: string, text: string): Promise<void> {
  const fh = await open(path, 'w', 0o600);
  try {
    // A file left from an earlier database keeps its old mode through open(): set it again.
    await fh.chmod(0o600);
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await chmod(path, 0o600);
}

/**
 * Tells the admin the first run's random password. On a terminal it is printed, as filebrowser
 * does. Otherwise stdout is a log (the systemd journal, docker logs, a file) that others may
 * read and that keeps it forever: the password goes to `<database>.admin-password`, mode 0600,
 * and the log names only that file. If the file cannot be written the password is printed after
 * all, since it is the only way into the new server.
 */
export async function announceFirstPassword(io: CliIO, first: FirstPassword): Promise<void> {
  const printed = `User '${first.username}' initialized with randomly generated password: ${first.password}\n`;
  if (io.stdout.isTTY === true) {
    io.stdout.write(printed);
    return;
  }
  const path = adminPasswordFile(first.database);
  try {
    await writeSecret(path, `${first.password}\n`);
  } catch (err) {
    io.stderr.write(`filemgr: cannot write the admin password to ${path}: ${fsReason(err)}; printing it instead\n`);
    io.stdout.write(printed);
    return;
  }
  io.stdout.write(`User '${first.username}' initialized with a randomly generated password, written to ${path} (mode 0600, readable by this user only): sign in, change the password, then delete the file\n`);
}
