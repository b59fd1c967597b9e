/**
 * Activity (issue 25, decision 032): the organisation's audit trail for owners (`GET /v1/org/audit-log`): who
 * (a member's e-mail, an API key's prefix, the platform operator), what, on which resource, when (the browser's
 * time zone, as the other console screens show times) and from which IP; newest first, paged by cursor and
 * filtered by action. An import's row folds out the tickets it issued or moved (issue 39); a member who left by
 * deleting their account is marked so.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { AUDIT_ACTIONS, type AuditEntry, type AuditPage } from '@tp/contract';
import { formatCents, langOf } from '@tp/contract/format';
import { org } from './api';
import { consoleKeys } from './console-query-keys';
import { Pager, TableRegion, useCursorPages } from './table-region';
import { consoleTime } from './zoned-time';
import { QueryState } from './query-state';

/** Who acted, as a person reads it. */
function actorText(t: TFunction, actor: AuditEntry['actor']): string {
  if (actor.kind === 'platform_admin') return t('console.activity.actor.platform_admin');
  if (actor.kind === 'api_key') return t('console.activity.actor.api_key', { prefix: actor.label ?? actor.id });
  return actor.label ?? t('console.activity.actor.erased');
}

/**
 * The resource as a person recognises it: a key's public prefix (`tpk_…`, `tpd_…`) or a member's e-mail (added or
 * removed) rather than its row id; an import by when it ran (its id is that instant), in the console's date format;
 * the organisation by its name.
 */
const resourceText = (e: AuditEntry) =>
  e.resourceName ??
  (typeof e.detail.prefix === 'string'
    ? e.detail.prefix
    : typeof e.detail.email === 'string'
      ? e.detail.email
      : e.resourceType === 'import' && !Number.isNaN(Date.parse(e.resourceId))
        ? consoleTime(e.resourceId)
        : e.resourceId);

/** A field's name as this console calls it (`venue` → "recinto" in Spanish); the API's name when it has none. */
const fieldName = (t: TFunction, field: string) => t(`console.activity.field.${field}`, { defaultValue: field });

/** A price change `{ fromCents, toCents, currency }` of a detail, when it is one. */
function priceChange(v: unknown): { fromCents: number; toCents: number; currency: string } | null {
  if (typeof v !== 'object' || v === null) return null;
  const p = v as Record<string, unknown>;
  return typeof p.fromCents === 'number' && typeof p.toCents === 'number' && typeof p.currency === 'string'
    ? { fromCents: p.fromCents, toCents: p.toCents, currency: p.currency }
    : null;
}

/**
 * The entry's details as a line a person reads (issue 41 point 12): the fields a change touched (by the console's
 * names for them, in its language), a ticket type's price before and after as money, a revoked ticket's number, a
 * member's role, a
 * webhook's host and events, a door key's events, an import's counts, a redelivered event's type, when the previous
 * API keys expire. Nothing for details it does not know (ids stay out of sight).
 */
function detailText(t: TFunction, d: AuditEntry['detail'], resourceType?: string): string {
  const parts: string[] = [];
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x) => typeof x === 'string').join(', ') : '');
  if (Array.isArray(d.fields) && d.fields.length)
    parts.push(
      t('console.activity.detail.fields', {
        fields: d.fields
          .filter((f) => typeof f === 'string')
          .map((f) => fieldName(t, f))
          .join(', '),
      }),
    );
  const price = priceChange(d.price);
  if (price) {
    const lang = langOf(document.documentElement.lang);
    parts.push(
      t('console.activity.detail.price', {
        from: formatCents(price.fromCents, price.currency, lang),
        to: formatCents(price.toCents, price.currency, lang),
      }),
    );
  }
  // The number the holder reads ("Ticket #13") of a revoked ticket, beside its id in the "On" column.
  if (typeof d.number === 'number') parts.push(t('console.activity.detail.number', { number: d.number }));
  if (typeof d.role === 'string') parts.push(t('console.activity.detail.role', { role: t(`console.role.${d.role}`) }));
  if (typeof d.host === 'string') parts.push(d.host);
  if (Array.isArray(d.events)) parts.push(d.events.length ? list(d.events) : t('console.activity.detail.all_events'));
  else if (d.events === null) parts.push(t('console.activity.detail.all_events'));
  if (typeof d.rows === 'number')
    parts.push(
      t('console.activity.detail.rows', {
        count: d.rows,
        created: typeof d.created === 'number' ? d.created : 0,
        updated: typeof d.updated === 'number' ? d.updated : 0,
      }),
    );
  if (typeof d.eventType === 'string') parts.push(d.eventType);
  // A created event's name (its id is in the "On" column).
  if (typeof d.name === 'string' && resourceType === 'event') parts.push(d.name);
  // The organiser's own ids of what a ticket or ticket type belongs to (issue 41 point 12, re-walk).
  if (typeof d.ticketTypeExternalId === 'string')
    parts.push(t('console.activity.detail.ticket_type', { id: d.ticketTypeExternalId }));
  if (typeof d.eventExternalId === 'string') parts.push(t('console.activity.detail.event', { id: d.eventExternalId }));
  if (typeof d.previousKeysExpireAt === 'string')
    parts.push(t('console.activity.detail.expires', { at: consoleTime(d.previousKeysExpireAt) }));
  return parts.join(' · ');
}

/** One ticket an import's entry names (issue 39): account ids of the holder, and of the previous one when moved. */
interface ImportedTicket {
  externalId: string;
  change: 'issued' | 'reissued';
  holderId: number;
  fromHolderId?: number | null;
}
const isImportedTicket = (x: unknown): x is ImportedTicket =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as ImportedTicket).externalId === 'string' &&
  ((x as ImportedTicket).change === 'issued' || (x as ImportedTicket).change === 'reissued');

/**
 * What an import issued or moved, folded under a count: each ticket named in the entry (at most
 * `AUDIT_IMPORT_TICKETS_NAMED`) with the holder's account, and how many more it did. Nothing for entries written
 * before imports named their tickets.
 */
function ImportedTickets({ detail }: { detail: AuditEntry['detail'] }) {
  const { t } = useTranslation();
  const tickets = Array.isArray(detail.tickets) ? detail.tickets.filter(isImportedTicket) : [];
  const more = typeof detail.ticketsNotNamed === 'number' ? detail.ticketsNotNamed : 0;
  if (tickets.length === 0) return null;
  return (
    <details>
      <summary>{t('console.activity.import_tickets', { count: tickets.length + more })}</summary>
      <ul className="activity-tickets">
        {tickets.map((x) => (
          <li key={x.externalId}>
            {x.change === 'reissued'
              ? t('console.activity.ticket_reissued', {
                  ticket: x.externalId,
                  from: x.fromHolderId ?? '—',
                  holder: x.holderId,
                })
              : t('console.activity.ticket_issued', { ticket: x.externalId, holder: x.holderId })}
          </li>
        ))}
        {more > 0 && <li>{t('console.activity.tickets_not_named', { count: more })}</li>}
      </ul>
    </details>
  );
}

export function ActivityScreen() {
  const { t } = useTranslation();
  const [action, setAction] = useState('');
  const pages = useCursorPages<string>();
  const { cursor } = pages;
  const log = useQuery({
    queryKey: consoleKeys.auditLog.list(action, cursor),
    queryFn: (): Promise<AuditPage> =>
      org.GET('/v1/org/audit-log', {
        params: { query: { action: AUDIT_ACTIONS.find((a) => a === action), cursor, limit: 25 } },
      }),
    // Changes made on the other screens a moment ago show when this one opens.
    staleTime: 0,
  });
  return (
    <section className="stack">
      <h1>{t('console.activity.title')}</h1>
      <p className="muted">{t('console.activity.help')}</p>
      <div className="row">
        <div className="field">
          <label className="field__label" htmlFor="activity-action">
            {t('console.activity.action_filter')}
          </label>
          <select
            id="activity-action"
            className="select"
            value={action}
            onChange={(e) => {
              setAction(e.target.value);
              pages.reset();
            }}
          >
            <option value="">{t('console.activity.any_action')}</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {t(`console.activity.action.${a}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <QueryState
        query={log}
        loading={t('console.activity.loading')}
        empty={log.data?.items.length === 0}
        none={t('console.activity.none')}
      />
      {log.data && log.data.items.length > 0 && (
        <TableRegion label={t('console.activity.title')} card>
          <table>
            <caption className="visually-hidden">{t('console.activity.title')}</caption>
            <thead>
              <tr>
                <th>{t('console.activity.when')}</th>
                <th>{t('console.activity.who')}</th>
                <th>{t('console.activity.what')}</th>
                <th>{t('console.activity.resource')}</th>
                <th>{t('console.activity.ip')}</th>
              </tr>
            </thead>
            <tbody>
              {log.data.items.map((e) => (
                <tr key={e.id}>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <time dateTime={e.at}>{consoleTime(e.at)}</time>
                  </td>
                  <td>{actorText(t, e.actor)}</td>
                  <td>
                    {t(`console.activity.action.${e.action}`)}
                    {e.detail.reason === 'account_deleted' && (
                      <span className="muted"> ({t('console.activity.reason.account_deleted')})</span>
                    )}
                    {detailText(t, e.detail, e.resourceType) && (
                      <div className="muted" data-testid="activity-detail">
                        {detailText(t, e.detail, e.resourceType)}
                      </div>
                    )}
                  </td>
                  <td>
                    {t(`console.activity.resource_type.${e.resourceType}`)}{' '}
                    {/* An import is named by its date, which is text, not an id. */}
                    {e.resourceType === 'import' ? (
                      <time dateTime={e.resourceId}>{resourceText(e)}</time>
                    ) : (
                      <code>{resourceText(e)}</code>
                    )}
                    {e.action === 'import.completed' && <ImportedTickets detail={e.detail} />}
                  </td>
                  <td>{e.ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager pages={pages} nextCursor={log.data?.nextCursor} />
    </section>
  );
}
