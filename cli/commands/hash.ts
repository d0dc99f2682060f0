import { hashPassword } from '../../server/accounts/password';
import type { Command } from '../command';

/** `filemgr hash <password>`: prints the bcrypt hash (cost 10), for --password and scripts. */
export const hashCommand: Command = {
  name: 'hash',
  summary: 'Print the bcrypt hash of a password (no strength check)',
  usage: '<password>',
  args: { min: 1, max: 1 },
  flags: [],
  async run(ctx) {
    ctx.io.stdout.write(`${await hashPassword(ctx.args[0] ?? '')}\n`);
    return 0;
  },
};
