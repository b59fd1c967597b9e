/**
 * The refused rows of an import (`api.org.import.invalid_rows`): each row's number, column, and the problem in the
 * console's language, with the cell's value (an empty cell said so) and, on the English console, the API's detail.
 */
import { useTranslation } from 'react-i18next';
import type { ImportRowError } from '../../api';
import { importRowText } from '../../errors';
import { TableHead, TableRegion } from '../../table-region';

export function ImportErrorsTable({ rows }: { rows: ImportRowError[] }) {
  const { t } = useTranslation();
  if (rows.length === 0) return null;
  return (
    <TableRegion label={t('console.import.problem')} card>
      <table>
        <caption>{t('console.import.errors_caption', { count: rows.length })}</caption>
        <TableHead columns={[t('console.import.row'), t('console.import.column'), t('console.import.problem')]} />
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
  );
}
