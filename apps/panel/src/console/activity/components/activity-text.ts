/**
 * The Activity screen's texts of an audit entry (issue 25, decision 032), in the console's language: who acted,
 * the resource as a person recognises it, and the details as a line (dates through the contract's formatter).
 */
import type { TFunction } from 'i18next';
import type { AuditEntry } from '@tp/contract';
import { formatCents, langOf } from '@tp/contract/format';
import { consoleTime } from '../../zoned-time';

/** Who acted, as a person reads it. */
export function actorText(t: TFunction, actor: AuditEntry['actor']): string {
  if (actor.kind === 'platform_admin') return t('console.activity.actor.platform_admin');
  if (actor.kind === 'api_key') return t('console.activity.actor.api_key', { prefix: actor.label ?? actor.id });
  return actor.label ?? t('console.activity.actor.erased');
}

/**
 * The resource as a person recognises it: a key's public prefix (`tpk_…`, `tpd_…`) or a member's e-mail (added or
 * removed) rather than its row id; an import by when it ran (its id is that instant), in the console's date format;
 * the organisation by its name.
 */
export const resourceText = (e: AuditEntry) =>
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
export function detailText(t: TFunction, d: AuditEntry['detail'], resourceType?: string): string {
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
