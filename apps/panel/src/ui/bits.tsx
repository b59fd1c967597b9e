import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';

/** A grey placeholder block while content loads. */
export const Skeleton = (p: { height?: number; width?: string | number; radius?: number }) => (
  <span
    className="skeleton"
    aria-hidden="true"
    style={{ height: p.height ?? 16, width: p.width ?? '100%', borderRadius: p.radius ?? 8 }}
  />
);

/** A small label: live, used, unused. */
export const Badge = (p: { tone: 'live' | 'used' | 'unused' | 'muted'; children: ReactNode }) => (
  <span className={`badge badge--${p.tone}`}>{p.children}</span>
);

/** A loading announcement for screen readers plus a spinner. */
export const Loading = (p: { label: string }) => (
  <div className="loading" role="status">
    <span className="spinner" aria-hidden="true" />
    <span className="visually-hidden">{p.label}</span>
  </div>
);

/**
 * The error state of a failed load: the (translated) message, announced, and a Retry button (`common.retry`). The
 * one error/retry block of the panel and the console: `onRetry` is usually the query's `refetch`; `retrying` (its
 * `isFetching`) shows the button busy while it asks again.
 */
export function ErrorState(p: { message: string; onRetry: () => unknown; retrying?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="error-state" role="alert">
      <p>{p.message}</p>
      <Button variant="secondary" loading={p.retrying} onClick={() => void p.onRetry()}>
        {t('common.retry')}
      </Button>
    </div>
  );
}
