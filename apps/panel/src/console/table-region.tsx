import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../ui/button';

/**
 * A table's horizontal scroller, named and reachable from the keyboard: at phone width a wide table scrolls, and a
 * scrollable region must take focus so it can be scrolled without a pointer (WCAG 2.1.1; axe
 * `scrollable-region-focusable`).
 */
export function TableRegion({ label, card, children }: { label: string; card?: boolean; children: ReactNode }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (WCAG 2.1.1)
    <div className={card ? 'table-wrap card' : 'table-wrap'} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

/**
 * Cursor paging of a console table: the cursors of the pages walked so far, the last one the current page's
 * (`undefined` on the first page). `reset` goes back to the first page (a new search or filter).
 */
export function useCursorPages<C extends string | number>() {
  const [cursors, setCursors] = useState<C[]>([]);
  return {
    cursor: cursors.at(-1),
    hasPrevious: cursors.length > 0,
    previous: () => setCursors((c) => c.slice(0, -1)),
    next: (cursor: C) => setCursors((c) => [...c, cursor]),
    reset: () => setCursors([]),
  };
}

/** Previous / Next under a table paged with `useCursorPages`; Next is off without a `nextCursor`. */
export function Pager<C extends string | number>({
  pages,
  nextCursor,
}: {
  pages: ReturnType<typeof useCursorPages<C>>;
  nextCursor: C | null | undefined;
}) {
  const { t } = useTranslation();
  return (
    <div className="row">
      <Button variant="ghost" className="btn--small" disabled={!pages.hasPrevious} onClick={pages.previous}>
        {t('console.previous')}
      </Button>
      <Button
        variant="ghost"
        className="btn--small"
        disabled={nextCursor == null}
        onClick={() => nextCursor != null && pages.next(nextCursor)}
      >
        {t('console.next')}
      </Button>
    </div>
  );
}

/**
 * A console table's head: one header cell a column, and `action`, the name of a last column of buttons, said only
 * to assistive technology (its cells carry the buttons).
 */
export function TableHead({ columns, action }: { columns: ReactNode[]; action?: string }) {
  return (
    <thead>
      <tr>
        {columns.map((c, i) => (
          <th key={i}>{c}</th>
        ))}
        {action !== undefined && (
          <th>
            <span className="visually-hidden">{action}</span>
          </th>
        )}
      </tr>
    </thead>
  );
}

/**
 * A small button of a table row (or a card of a list): `label`, named to assistive technology with what it acts on
 * ("Edit: GA", `name`); `loading` while its request runs.
 */
export function RowButton({
  label,
  name,
  onClick,
  variant = 'secondary',
  loading,
}: {
  label: string;
  name: string;
  onClick: () => void;
  variant?: 'secondary' | 'ghost';
  loading?: boolean;
}) {
  return (
    <Button
      variant={variant}
      className="btn--small"
      loading={loading}
      onClick={onClick}
      aria-label={`${label}: ${name}`}
    >
      {label}
    </Button>
  );
}
