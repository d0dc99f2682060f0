import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import type { CommandService } from './service';
import { wsChannel } from './ws-channel';

export interface CommandRoutesOptions {
  command: CommandService;
}

type PathParams = { Params: { '*'?: string } };

/** The WebSocket same-origin rule (api.md §3.18 step 2): an Origin, when sent, names this host. */
function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    return new URL(origin).host.toLowerCase() === (host ?? '').toLowerCase();
  } catch {
    return false;
  }
}

/**
 * Signed-in: the command runner WebSocket GET /api/command{p} (api.md §3.18, §14). Everything
 * that can be refused with a status is refused before the upgrade: no token 401 (the signed-in
 * scope), not a WebSocket 400, another origin 403, a working directory the path gate refuses
 * 403/404. The command itself is judged after it arrives.
 */
export function commandRoutes(app: FastifyInstance, opts: CommandRoutesOptions): void {
  const { command } = opts;
  const cwds = new WeakMap<FastifyRequest, string>();
  const preHandler = async (request: FastifyRequest<PathParams>): Promise<void> => {
    if (!request.ws) throw new AppError('bad_request', 'the command runner speaks WebSocket only');
    if (!sameOrigin(request.headers.origin, request.headers.host)) throw new AppError('forbidden');
    cwds.set(request, await command.workingDirectory(request.user, request.params['*'] ?? '/'));
  };
  for (const url of ['/api/command', '/api/command/*']) {
    app.route<PathParams>({
      method: 'GET',
      url,
      preHandler,
      // Reached only by plain HTTP requests, which the preHandler already refused.
      handler: () => Promise.reject(new AppError('bad_request')),
      wsHandler: async (socket, request) => {
        const report = await command.run(request.user.id, cwds.get(request) ?? '', wsChannel(socket));
        request.log.info({ user: request.user.username, ...report }, 'command runner');
      },
    });
  }
}
