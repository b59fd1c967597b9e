import { useTranslation } from 'react-i18next';
import { ticketNumber } from '../../../lib/format';
import type { SwapTicket } from '../api/swappable-tickets.api';
import type { SwapSelection } from '../hooks/use-swap-selection';
import { cardFields } from './card-fields';
import { SwapCard } from './swap-card';
import { SwapStepper } from './swap-stepper';

/**
 * Step 1: the holder's swappable ticket types, each with the numbers of the tickets it groups (issue 23) and a
 * count stepper; the selected one is solid.
 */
export function SwapBaseStep(p: {
  list: SwapTicket[];
  selection: SwapSelection | null;
  assetsBaseUrl: string | undefined;
  onCount: (base: SwapTicket, n: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="stack" aria-labelledby="swap-base-title">
      <h2 id="swap-base-title" className="section-title">
        {t('swap.step_base')}
      </h2>
      <ul className="swap-list">
        {p.list.map((b) => {
          const count = p.selection?.baseId === b.id ? p.selection.count : 0;
          return (
            <li key={b.id}>
              <SwapCard
                {...cardFields(b, p.assetsBaseUrl)}
                selected={count > 0}
                variant={count > 0 ? 'solid' : 'default'}
              >
                {b.userTicketIds?.length ? (
                  <p className="muted small">
                    {t('swap.ticket_numbers', {
                      count: b.userTicketIds.length,
                      numbers: b.userTicketIds.map(ticketNumber).join(', '),
                    })}
                  </p>
                ) : null}
                <SwapStepper ticket={b} count={count} onChange={(n) => p.onCount(b, n)} />
              </SwapCard>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
