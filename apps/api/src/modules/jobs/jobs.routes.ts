/**
 * `/admin/jobs/...` (`Authorization: Bearer <ADMIN_KEY>`, issue 25): the operator's view of the durable job queue's
 * failed jobs (mails the SMTP server kept refusing, …) and a retry.
 */
import * as z from 'zod';
import { jobs as contract } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { errors, securityOf } from '../../lib/openapi.js';
import type { JobsAdminService } from './jobs.service.js';

const adminSecurity = securityOf('adminKey');

export function jobsRoutes(app: App, deps: { jobs: JobsAdminService; requireAdmin: PreHandler }) {
  const admin = { preHandler: deps.requireAdmin };
  app.get(
    '/admin/jobs/failed',
    {
      ...admin,
      schema: {
        operationId: 'listFailedJobs',
        summary: 'Background jobs (e-mails, …) whose attempts ran out, newest failure first',
        security: adminSecurity,
        querystring: contract.failedJobsQuery,
        response: { 200: contract.failedJobsResponse, ...errors(401) },
      },
    },
    async (req) => deps.jobs.failed(req.query.limit),
  );
  app.post(
    '/admin/jobs/:id/retry',
    {
      ...admin,
      schema: {
        operationId: 'retryFailedJob',
        summary: 'Put a failed job back in the queue, due now with fresh attempts',
        security: adminSecurity,
        params: contract.jobParams,
        response: { 204: z.null(), ...errors(401, 404) },
      },
    },
    async (req, reply) => {
      await deps.jobs.retry(req.params.id);
      return reply.code(204).send(null);
    },
  );
}
