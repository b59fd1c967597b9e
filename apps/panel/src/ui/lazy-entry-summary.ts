/**
 * The entry summary (ui/entry-summary.tsx, issue 48) as a lazy component: its code and texts load only when a ticket
 * with entry rules is shown. Render it inside a `Suspense`.
 */
import { lazy } from 'react';

export const LazyEntrySummary = lazy(() => import('./entry-summary').then((m) => m.withTexts()));
