/**
 * The one way a console screen says where its data stands: "Loading…" (role=status) while a query has no data yet;
 * the error (`ErrorState` of `ui/bits`: the API's message key through `errorText`, and Try again) when it failed; the
 * screen's empty text when it answered with nothing. Renders nothing once there is data to show.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorState } from '../ui/bits';
import { errorText } from './errors';

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
  query: Pick<UseQueryResult, 'isPending' | 'isError' | 'error' | 'isFetching' | 'refetch'>;
  empty?: boolean;
  none?: ReactNode;
  loading?: string;
}) {
  const { t } = useTranslation();
  if (query.isError)
    return <ErrorState message={errorText(t, query.error)} onRetry={query.refetch} retrying={query.isFetching} />;
  if (query.isPending)
    return (
      <p className="muted" role="status">
        {loading ?? t('console.loading')}
      </p>
    );
  if (empty && none) return <p className="muted">{none}</p>;
  return null;
}
