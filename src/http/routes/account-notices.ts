// /api/account/notices: what txmail has to tell the account (e.g. a webhook endpoint was disabled).
import type { FastifyInstance } from 'fastify';
import type { NoticesRepo } from '../../db/notices-repo.js';
import { authOf } from '../authenticate.js';
import { AUTHENTICATED, json, list, ref, responses } from '../schemas/responses.js';

export function registerAccountNoticeRoutes(app: FastifyInstance, notices: NoticesRepo): void {
  app.get(
    '/api/account/notices',
    {
      schema: {
        summary: 'Notices for the account, newest first (the last 100)',
        response: responses({ 200: json('The notices', list(ref('Notice'))) }, AUTHENTICATED),
      },
    },
    async (request) => {
      const rows = await notices.list(authOf(request).account.id, 100);
      return {
        data: rows.map((n) => ({
          id: n.id,
          kind: n.kind,
          message: n.message,
          data: JSON.parse(n.data) as unknown,
          created_at: new Date(n.created_at).toISOString(),
        })),
      };
    },
  );
}
