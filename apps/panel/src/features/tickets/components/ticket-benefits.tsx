/**
 * The ticket page's lists (spec section 2 Ticket page): the event-access item with its used state (or, for a
 * cancelled event's ticket not used, "Cancelled": issue 46), and the benefit
 * list (only what was bought: purchasedAmount above 0) with used/bought counts; no benefit: an empty state with the
 * organiser's site. Each item opens its detail modal (the screen owns it).
 */
import { useTranslation } from 'react-i18next';
import type { Benefit, MyTicket } from '@tp/contract';
import { usePanelConfig } from '../../../lib/queries';
import { assetUrl, formatWhen } from '../../../lib/format';
import { Badge } from '../../../ui/bits';
import { EmptyState } from '../../../ui/empty-state';
import { ChevronIcon, TicketIcon } from '../../../ui/icons';

/** Whether a benefit is used up (all that was bought used). */
export const benefitUsed = (b: Benefit) => b.purchasedAmount === b.usedAmount;

/**
 * Whether the ticket's access is void because its event was cancelled (issue 46, decision 045): not "Unused", as if it
 * could still be used. An access used before the cancel stays "Used" with its date.
 */
export const accessCancelled = (tk: MyTicket) => tk.eventCancelled !== undefined && tk.eventAccessStatus !== 'USED';

/** The event-access item; `onOpen` opens its detail. */
export function EventAccessSection({ tk, onOpen }: { tk: MyTicket; onOpen: () => void }) {
  const { t } = useTranslation();
  const accessUsed = tk.eventAccessStatus === 'USED';
  const cancelled = accessCancelled(tk);
  return (
    <section aria-labelledby="access-title" className="stack-sm">
      <h2 id="access-title" className="section-title">
        {t('ticket.your_ticket')}
      </h2>
      <ul className="benefit-list">
        <li>
          <button type="button" className="benefit-item" onClick={onOpen}>
            <span className="benefit-item__icon" style={{ background: 'var(--accent)' }}>
              <TicketIcon />
            </span>
            <span className="benefit-item__body">
              <span className="benefit-item__name">{t('ticket.event_access')}</span>
              <span className="muted small">
                {/* What the row is (the badge beside it says its state once: issue 40 point 11). */}
                {accessUsed && tk.eventAccessUsedOn
                  ? t('ticket.used_on', { date: formatWhen(tk.eventAccessUsedOn, tk.eventTimeZone) })
                  : cancelled
                    ? t('ticket.access_cancelled')
                    : t('ticket.event_access_text')}
              </span>
            </span>
            {cancelled ? (
              <Badge tone="used">{t('tickets.cancelled')}</Badge>
            ) : (
              <Badge tone={accessUsed ? 'used' : 'unused'}>{accessUsed ? t('ticket.used') : t('ticket.unused')}</Badge>
            )}
            <ChevronIcon />
          </button>
        </li>
      </ul>
    </section>
  );
}

/** The bought benefits; `onOpen` opens one's detail by its `userTicketBenefitId`. */
export function BenefitsSection({ benefits, onOpen }: { benefits: Benefit[]; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const config = usePanelConfig();
  const base = config?.assetsBaseUrl;
  return (
    <section aria-labelledby="benefits-title" className="stack-sm">
      <h2 id="benefits-title" className="section-title">
        {t('ticket.benefits')}
      </h2>
      {benefits.length === 0 ? (
        <EmptyState message={t('feedback.benefits_empty')} hint={t('feedback.benefits_empty_hint')}>
          {config?.orgWebsite && (
            <a className="btn btn--secondary" href={config.orgWebsite} target="_blank" rel="noopener noreferrer">
              {t('feedback.visit_organiser')}
            </a>
          )}
        </EmptyState>
      ) : (
        <ul className="benefit-list">
          {benefits.map((b) => (
            <li key={b.userTicketBenefitId}>
              <button type="button" className="benefit-item" onClick={() => onOpen(b.userTicketBenefitId)}>
                <span className="benefit-item__icon" style={{ background: b.iconBgColor ?? 'var(--accent)' }}>
                  {b.icon ? <img src={assetUrl(b.icon, base)} alt="" width={20} height={20} /> : <TicketIcon />}
                </span>
                <span className="benefit-item__body">
                  <span className="benefit-item__name">{b.name}</span>
                  <span className="muted small">{b.shortDescription}</span>
                </span>
                <span className="muted small">
                  {b.usedAmount}/{b.purchasedAmount}
                </span>
                <Badge tone={benefitUsed(b) ? 'used' : 'unused'}>
                  {benefitUsed(b) ? t('ticket.used') : t('ticket.unused')}
                </Badge>
                <ChevronIcon />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
