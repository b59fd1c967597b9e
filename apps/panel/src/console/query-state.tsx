/**
 * The one way a console screen says where its data stands: "Loading…" (role=status) while a query has no data yet;
 * the error (role=alert, the API's message key through `errorText`) with a Try again button when it failed; the
 * screen's empty text when it answered with nothing. Renders nothing once there is data to show.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../ui/button';
import { errorText } from './errors';

/** The parts of a TanStack Query result this reads. */
export interface QueryLike {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * `query`: the screen's query. `empty`: true when its data holds nothing to show (checked only after it answered);
 * `none`: the text shown then. `loading`: a more precise loading text than the console's "Loading…".
 */
export function QueryState({
  query,
  empty = false,
  none,
  loading,
}: {
  query: QueryLike;
  empty?: boolean;
  none?: ReactNode;
  loading?: string;
}) {
  const { t } = useTranslation();
  if (query.isError)
    return (
      <div className="row" role="alert">
        <p className="error">{errorText(t, query.error)}</p>
        <Button variant="secondary" className="btn--small" loading={query.isFetching} onClick={() => query.refetch()}>
          {t('console.retry')}
        </Button>
      </div>
    );
  if (query.isPending)
    return (
      <p className="muted" role="status">
        {loading ?? t('console.loading')}
      </p>
    );
  if (empty && none) return <p className="muted">{none}</p>;
  return null;
}
