/**
 * An event's ticket types (issue 21) in a table, each with its entry rules in a few words (issue 48); `type` (from the URL) opens a type's form (ticket-type-form.tsx):
 * its id, or `null` for a new one. An event without the organiser's id has none to list (its view opens in place,
 * without a URL). A cancelled event's types are listed only: no New, no Edit, no form (the API refuses a change with
 * `api.org.event_cancelled`; the view's cancelled notice atop says why, event-view.tsx).
 */
import { useTranslation } from 'react-i18next';
import { formatCents, langOf } from '@tp/contract/format';
import { Button } from '../../../ui/button';
import { QueryState } from '../../query-state';
import { goUp, navigate } from '../../routing';
import { RowButton, TableHead, TableRegion } from '../../table-region';
import type { EventItem } from '../../events-list.api';
import { useTicketTypes } from '../api/ticket-types.api';
import { BackRow } from './back-row';
import { rulesSummary } from './entry-rules-fields';
import { TicketTypeForm } from './ticket-type-form';

export function TicketTypes({ event, type, onBack }: { event: EventItem; type?: string | null; onBack: () => void }) {
  const { t } = useTranslation();
  const types = useTicketTypes(event.externalId);
  if (event.externalId === null)
    return (
      <section className="stack">
        <BackRow onBack={onBack}>
          <h1>{t('console.types.title', { event: event.name })}</h1>
        </BackRow>
        <p className="muted" data-testid="types-no-external-id">
          {t('console.types.no_external_id')}
        </p>
      </section>
    );
  const all = types.data?.items ?? [];
  const eventId = event.externalId;
  const list = { screen: 'events', event: eventId, view: 'ticket-types' } as const;
  const edit = (typeId: string | null) =>
    navigate({ screen: 'events', event: eventId, view: 'ticket-type', type: typeId });
  const final = event.cancelledAt !== null;
  const editing = type === null ? null : all.find((ty) => ty.externalId === type);
  if (!final && (type === null || editing))
    return <TicketTypeForm event={event} type={editing ?? null} others={all} onDone={() => goUp(list)} />;
  if (!final && type !== undefined && !types.data) return <QueryState query={types} />;
  const lang = langOf(document.documentElement.lang);
  return (
    <section className="stack">
      <BackRow onBack={onBack}>
        <h1 style={{ marginRight: 'auto' }}>{t('console.types.title', { event: event.name })}</h1>
        {!final && <Button onClick={() => edit(null)}>{t('console.types.new')}</Button>}
      </BackRow>
      <QueryState query={types} empty={all.length === 0} none={t('console.types.none')} />
      <TableRegion label={t('console.events.ticket_types')}>
        <table>
          <TableHead
            columns={[
              t('console.types.external_id'),
              t('console.types.name'),
              t('console.types.price'),
              t('console.types.stock'),
              t('console.types.entry_rules'),
            ]}
            action={final ? undefined : t('console.edit')}
          />
          <tbody>
            {all.map((ty) => (
              <tr key={ty.externalId}>
                <td>{ty.externalId}</td>
                <td>{ty.name}</td>
                <td>{formatCents(ty.priceCents, ty.currency, lang)}</td>
                <td data-label={t('console.types.stock')}>{ty.stock}</td>
                <td data-label={t('console.types.entry_rules')}>{rulesSummary(t, ty.entryRules)}</td>
                {!final && (
                  <td>
                    <RowButton
                      label={t('console.edit')}
                      name={ty.name}
                      onClick={() => ty.externalId !== null && edit(ty.externalId)}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </section>
  );
}
