import type { ReactNode } from 'react';

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
