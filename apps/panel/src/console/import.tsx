/**
 * Import (issue 21): upload a CSV, see the dry run's every error per row and column in a table, then import it
 * (POST /v1/org/tickets/import, all or nothing). The file goes as it is (the API detects UTF-8/UTF-16, a BOM,
 * comma or semicolon).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { IMPORT_COLUMNS, type ImportLimits } from '@tp/contract/organisations';
import { Button } from '../ui/button';
import { importRowErrors, org, type ImportRowError } from './api';
import { consoleKeys } from './console-query-keys';
import { errorText, importErrorDetail, importRowText } from './errors';
import { TableRegion } from './table-region';

type Outcome = { dryRun: boolean; created: number; updated: number; unchanged: number };
type RowError = ImportRowError;

export function ImportScreen() {
  const { t, i18n } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [rows, setRows] = useState<RowError[]>([]);
  const [error, setError] = useState<{ text: string; detail?: string } | null>(null);
  // This instance's limits (GET /org/tickets/import): PostgreSQL takes 10,000 rows, the embedded database fewer.
  const limits = useQuery({
    queryKey: consoleKeys.importLimits,
    queryFn: (): Promise<ImportLimits> => org.GET('/v1/org/tickets/import'),
  });
  const number = new Intl.NumberFormat(i18n.language);

  async function run(chosen: File, dryRun: boolean) {
    setBusy(true);
    setError(null);
    setRows([]);
    setOutcome(null);
    try {
      setOutcome(
        await org.POST('/v1/org/tickets/import', {
          params: { query: dryRun ? { dryRun: 'true' } : {} },
          headers: { 'content-type': 'text/csv' },
          body: chosen,
        }),
      );
    } catch (err) {
      const refused = importRowErrors(err);
      if (refused) setRows(refused);
      // The catalogue's text, and below it what helps in the console's language (the limits).
      const detail = importErrorDetail(t, err, limits.data, (n) => number.format(n));
      setError({ text: errorText(t, err), ...(detail ? { detail } : {}) });
    } finally {
      setBusy(false);
    }
  }

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
            if (chosen) void run(chosen, true);
          }}
        />
      </div>
      <div aria-live="polite" className="stack">
        {busy && <p>{t('console.import.checking')}</p>}
        {error && (
          <div role="alert">
            <p className="error">{error.text}</p>
            {error.detail && <p className="muted">{error.detail}</p>}
          </div>
        )}
        {outcome &&
          (outcome.dryRun ? (
            <div className="card stack">
              <p>
                {t('console.import.ready', {
                  created: outcome.created,
                  updated: outcome.updated,
                  unchanged: outcome.unchanged,
                })}
              </p>
              <Button onClick={() => file && void run(file, false)} loading={busy}>
                {t('console.import.run')}
              </Button>
            </div>
          ) : (
            <p className="card">
              {t('console.import.done', {
                created: outcome.created,
                updated: outcome.updated,
                unchanged: outcome.unchanged,
              })}
            </p>
          ))}
      </div>
      {rows.length > 0 && (
        <TableRegion label={t('console.import.problem')} card>
          <table>
            <caption>{t('console.import.errors_caption', { count: rows.length })}</caption>
            <thead>
              <tr>
                <th>{t('console.import.row')}</th>
                <th>{t('console.import.column')}</th>
                <th>{t('console.import.problem')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => {
                const { text, detail } = importRowText(t, r);
                return (
                  <tr key={i}>
                    <td>{r.row}</td>
                    <td>{r.field ?? '—'}</td>
                    <td>
                      {text}
                      {r.value !== undefined && (
                        <div>
                          {t('console.import.value')}{' '}
                          {r.value === '' ? (
                            // An empty cell, said by the console in its language; a cell typed "(empty)" is code.
                            <em className="muted">{t('console.import.empty_value')}</em>
                          ) : (
                            <code>{r.value}</code>
                          )}
                        </div>
                      )}
                      {detail && <div className="muted">{detail}</div>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}
