/**
 * The platform admin's side of the durable job queue (issue 25, decision 030): the failed jobs kept for the
 * operator, and putting one back in the queue.
 */
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { listFailedJobs, retryFailedJob } from '../../providers/jobs/job-queue.js';

export function createJobsAdminService(deps: { database: Database; now: () => Date }) {
  const { db } = deps.database;
  return {
    /** The failed jobs, newest failure first, at most `limit`; times ISO 8601 UTC. */
    async failed(limit: number) {
      const rows = await listFailedJobs(db, limit);
      return rows.map((r) => ({ ...r, failedAt: r.failedAt.toISOString(), createdAt: r.createdAt.toISOString() }));
    },
    /**
     * Puts a failed job back in the queue, due now with fresh attempts.
     * @throws AppError('api.admin.job_not_found') when no failed job has this id
     */
    async retry(id: number): Promise<void> {
      if (!(await retryFailedJob(db, id, deps.now()))) throw new AppError('api.admin.job_not_found');
    },
  };
}
export type JobsAdminService = ReturnType<typeof createJobsAdminService>;
