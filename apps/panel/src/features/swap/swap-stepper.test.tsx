/**
 * The swap's count stepper (ui/step-button.css): − and + named by what they do to the ticket type, − disabled at 0 and
 * + at the quantity held, each press asking for the count one step away.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { renderPanel } from '../../test/render';
import { SwapStepper } from './components/swap-stepper';

const vip = {
  id: 2,
  name: 'VIP',
  logo: null,
  price: 200,
  currencySymbol: 'A$',
  currencyCode: 'AUD',
  quantity: 2,
  eventId: 9,
  eventName: 'Laneway Sessions',
  userTicketIds: [7, 8],
};

afterEach(cleanup);

describe('SwapStepper', () => {
  it('steps the count by one within 0 and the quantity held', () => {
    const onChange = vi.fn();
    const { rerender } = renderPanel(<SwapStepper ticket={vip} count={0} onChange={onChange} />);
    const less = screen.getByRole<HTMLButtonElement>('button', { name: 'One less VIP, Laneway Sessions ticket' });
    const more = screen.getByRole<HTMLButtonElement>('button', { name: 'One more VIP, Laneway Sessions ticket' });
    expect([less.textContent, more.textContent]).toEqual(['−', '+']);
    expect([less.disabled, more.disabled]).toEqual([true, false]);
    fireEvent.click(more);
    expect(onChange).toHaveBeenLastCalledWith(1);

    rerender(<SwapStepper ticket={vip} count={2} onChange={onChange} />);
    expect([less.disabled, more.disabled]).toEqual([false, true]);
    fireEvent.click(less);
    expect(onChange).toHaveBeenLastCalledWith(1);
    expect(less.className).toBe('icon-btn step-button swap-stepper__btn');
  });
});
