import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../lib/use-route';
import { Button } from './button';
import { TicketIcon } from './icons';
import './feedback.css';

/**
 * The empty state of spec section 2: a message with an icon; issue 13: plus a `hint` sentence saying what
 * would show here, and `children`, the next step (a button or link to where to go).
 */
export const EmptyState = (p: { message: string; hint?: string; children?: ReactNode }) => (
  <div className="empty" role="status">
    <span className="empty__icon">
      <TicketIcon />
    </span>
    <p>{p.message}</p>
    {p.hint && <p className="muted small empty__hint">{p.hint}</p>}
    {p.children && <div className="empty__actions">{p.children}</div>}
  </div>
);

/** The usual next step of an empty list or a finished flow: back to MY_TICKET (the holder's tickets). */
export function SeeMyTicketsButton(p: { variant?: 'secondary' }) {
  const { t } = useTranslation();
  return (
    <Button variant={p.variant} onClick={() => navigate({ tab: 'MY_TICKET', userTicketId: null, ticketName: null })}>
      {t('feedback.see_my_tickets')}
    </Button>
  );
}
