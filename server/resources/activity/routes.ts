import type { FastifyInstance } from 'fastify';
import { ActivityPageSchema, ActivityQuerySchema, type ActivityQuery } from '../../contract/activity';
import type { ActivityService } from './service';

export interface ActivityRoutesOptions {
  activity: ActivityService;
}

type ActivityRoute = { Querystring: ActivityQuery };

/** Signed-in: GET /api/activity (JSON page) and /api/activity.csv (admins; anyone with user=self), beyond.md §8. */
export function activityRoutes(app: FastifyInstance, opts: ActivityRoutesOptions): void {
  const { activity } = opts;
  app.get<ActivityRoute>('/api/activity', { schema: { querystring: ActivityQuerySchema, response: { 200: ActivityPageSchema } } }, (request) =>
    activity.page(request.user, request.query),
  );
  app.get<ActivityRoute>('/api/activity.csv', { schema: { querystring: ActivityQuerySchema } }, (request, reply) => {
    const body = activity.csv(request.user, request.query);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="activity.csv"')
      .header('cache-control', 'no-store')
      .send(body);
  });
}
