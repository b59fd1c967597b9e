/**
 * Import (issue 21): upload a CSV, see the dry run's every error per row and column in a table
 * (import-errors-table.tsx), then import it (all or nothing; import-tickets.api.ts). This instance's limits are
 * said above the file input and under a refusal for size. A large file is imported in the background: its progress
 * bar (import-progress.tsx) follows it to done (issue 44).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IMPORT_COLUMNS } from '@tp/contract/organisations';
import { importRowErrors } from '../../api';
import { errorText, importErrorDetail } from '../../errors';
import { FormFooter } from '../../form-footer';
import { ErrorBlock } from '../../server-errors';
import { useImportLimits } from '../api/import-limits.api';
import { useImportTickets } from '../api/import-tickets.api';
import { ImportErrorsTable } from './import-errors-table';
import { ImportProgress } from './import-progress';

export function ImportScreen() {
  const { t, i18n } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const limits = useImportLimits();
  const run = useImportTickets();
  const number = new Intl.NumberFormat(i18n.language);
  const answer = run.data;
  const importId = answer && 'importId' in answer ? answer.importId : null;
  const outcome = answer && 'dryRun' in answer ? answer : undefined;
  const counts = outcome && { created: outcome.created, updated: outcome.updated, unchanged: outcome.unchanged };
  return (
    <section className="stack">
      <h1>{t('console.import.title')}</h1>
      <div className="card stack">
        <p className="muted">
          {t('console.import.help', { columns: IMPORT_COLUMNS.join(', ') })}
          {limits.data && (
            <>
              {' '}
              <span data-testid="import-limits">
                {t('console.import.limits', {
                  rows: number.format(limits.data.maxRows),
                  size: number.format(limits.data.maxBytes / 1024 / 1024),
                })}
              </span>
            </>
          )}
        </p>
        <label className="field__label" htmlFor="import-file">
          {t('console.import.file')}
        </label>
        <input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => {
            const chosen = e.target.files?.[0] ?? null;
            setFile(chosen);
            if (chosen) run.mutate({ file: chosen, dryRun: true });
          }}
        />
      </div>
      <div aria-live="polite" className="stack">
        {run.isPending && <p>{t('console.import.checking')}</p>}
        {/* The catalogue's text, and below it what helps in the console's language (the limits). */}
        <ErrorBlock
          message={run.error ? errorText(t, run.error) : null}
          detail={importErrorDetail(t, run.error, limits.data, (n) => number.format(n))}
        />
        {outcome &&
          counts &&
          (outcome.dryRun ? (
            <div className="card stack">
              <p>{t('console.import.ready', counts)}</p>
              <FormFooter
                bare
                submit={t('console.import.run')}
                pending={run.isPending}
                onSubmit={() => file && run.mutate({ file, dryRun: false })}
              />
            </div>
          ) : (
            <p className="card">{t('console.import.done', counts)}</p>
          ))}
        {importId && <ImportProgress key={importId} importId={importId} />}
      </div>
      <ImportErrorsTable rows={importRowErrors(run.error) ?? []} />
    </section>
  );
}
