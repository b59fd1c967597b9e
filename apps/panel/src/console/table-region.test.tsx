/**
 * The console's pager (table-region.tsx): Next follows the page's `nextCursor` and is off without one; Previous
 * walks back to the first page and is off there; `reset` (a new search) starts again from the first page.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { initConsoleI18n } from './i18n';
import { Pager, useCursorPages } from './table-region';

/** A list of three pages: first -> b -> c (the last). */
const NEXT: Record<string, string | null> = { first: 'b', b: 'c', c: null };

function Table() {
  const pages = useCursorPages<string>();
  const page = pages.cursor ?? 'first';
  return (
    <>
      <p data-testid="page">{page}</p>
      <button onClick={pages.reset}>New search</button>
      <Pager pages={pages} nextCursor={NEXT[page]} />
    </>
  );
}

beforeAll(async () => {
  await initConsoleI18n();
});
afterEach(cleanup);

describe('console pager', () => {
  it('walks forward by cursor, back to the first page, and starts again on a new search', () => {
    render(<Table />);
    const page = () => screen.getByTestId('page').textContent;
    const previous = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Previous page' });
    const next = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Next page' });
    expect(page()).toBe('first');
    expect(previous().disabled).toBe(true);
    fireEvent.click(next());
    fireEvent.click(next());
    expect(page()).toBe('c');
    expect(next().disabled).toBe(true);
    fireEvent.click(previous());
    expect(page()).toBe('b');
    fireEvent.click(previous());
    expect(page()).toBe('first');
    expect(previous().disabled).toBe(true);
    fireEvent.click(next());
    fireEvent.click(screen.getByRole('button', { name: 'New search' }));
    expect(page()).toBe('first');
    expect(previous().disabled).toBe(true);
  });
});
