/**
 * A background import's progress (issue 44): a bar of the rows written so far, then what it did, or the rows that
 * stopped it (its errors in the same table as a dry run's). Polled by import-status.api.ts; once finished, the
 * tickets' and events' queries are read again.
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleKeys } from '../../console-query-keys';
import { useImportStatus } from '../api/import-status.api';
import { ImportErrorsTable } from './import-errors-table';

export function ImportProgress({ importId }: { importId: string }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  const { data } = useImportStatus(importId);
  const queryClient = useQueryClient();
  const status = data?.status;
  // Tickets written: the holders' lists and an event's counts read again.
  useEffect(() => {
    if (status === 'done' || status === 'failed') {
      void queryClient.invalidateQueries({ queryKey: consoleKeys.tickets.all });
      void queryClient.invalidateQueries({ queryKey: consoleKeys.events.all });
    }
  }, [status, queryClient]);
  if (!data) return <p className="card">{t('console.import.queued')}</p>;
  const counts = { created: data.created ?? 0, updated: data.updated ?? 0, unchanged: data.unchanged ?? 0 };
  const finished = data.status === 'done' || data.status === 'failed';
  return (
    <div className="card stack" data-testid="import-progress" data-status={data.status}>
      {!finished && <p className="muted">{t('console.import.background')}</p>}
      <label className="import-progress">
        <span>
          {data.status === 'queued'
            ? t('console.import.queued')
            : t('console.import.running', { done: number.format(data.rowsDone), total: number.format(data.rowsTotal) })}
        </span>
        <progress
          aria-label={t('console.import.progress')}
          max={Math.max(1, data.rowsTotal)}
          value={data.status === 'done' ? data.rowsTotal : data.rowsDone}
        />
      </label>
      {data.status === 'done' && <p>{t('console.import.done', counts)}</p>}
      {data.status === 'failed' && (
        <p role="alert">
          {data.rowsDone > 0
            ? t('console.import.failed_partial', { done: number.format(data.rowsDone) })
            : t('console.import.failed')}
        </p>
      )}
      <ImportErrorsTable rows={data.errors ?? []} />
    </div>
  );
}
