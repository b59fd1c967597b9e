/**
 * Holders (issue 21): the organisation's tickets with their current holder, searched by e-mail, name or id, or
 * the number the holder reads ("Ticket #13", shown beside the id: issue 41, point 4),
 * filtered by event and status, paged by cursor; a ticket's drawer with its history, re-send of the ticket e-mail
 * (POST /v1/org/tickets/{externalId}/resend) and revoke with a confirm; the chosen event's attendees as a CSV file
 * (GET /v1/org/events/{externalId}/attendees.csv, headers in the console's language), saved as `attendees.csv`.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { organisations } from '@tp/contract';
import type * as z from 'zod';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { ApiError, org } from './api';
import { consoleKeys } from './console-query-keys';
import { emailStatusText, errorText } from './errors';
import { Pager, TableRegion, useCursorPages } from './table-region';
import { consoleTime as when } from './zoned-time';
import { QueryState } from './query-state';
import { fieldErrorText } from './server-errors';
import { goUp, navigate } from './routing';

type TicketItem = z.infer<typeof organisations.ticketItem>;
type TicketDetail = z.infer<typeof organisations.ticketDetail>;
type EventItem = z.infer<typeof organisations.eventItem>;
type Page<T> = { items: T[]; nextCursor: string | null };

/**
 * The Holders screen; `event` (from the URL, /console/events/:event/holders) filters by that event, `ticket`
 * (…/holders/:ticket) opens that ticket's drawer (routing.ts).
 */
// Over 150 lines: the holders screen (search, filters, export, table, drawer); to move into console/holders/ with the
// layout (issue 43).
export function HoldersScreen({ event: eventFilter, ticket }: { event?: string; ticket?: string }) {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const event = eventFilter ?? '';
  const upcoming = useQuery({
    queryKey: consoleKeys.events.list('upcoming'),
    queryFn: (): Promise<Page<EventItem>> =>
      org.GET('/v1/org/events', { params: { query: { when: 'upcoming', limit: 100 } } }),
  });
  const past = useQuery({
    queryKey: consoleKeys.events.list('past'),
    queryFn: (): Promise<Page<EventItem>> =>
      org.GET('/v1/org/events', { params: { query: { when: 'past', limit: 100 } } }),
  });
  const events = [...(upcoming.data?.items ?? []), ...(past.data?.items ?? [])].filter((e) => e.externalId !== null);
  const exportCsv = useMutation({
    mutationFn: async () => {
      const csv: string = await org.GET('/v1/org/events/{externalId}/attendees.csv', {
        params: { path: { externalId: event } },
        headers: { 'accept-language': i18n.language },
        parseAs: 'text',
      });
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'attendees.csv';
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
  const pages = useCursorPages<string>();
  const open = (externalId: string) =>
    navigate({ screen: 'holders', ...(eventFilter ? { event: eventFilter } : {}), ticket: externalId });
  const close = useCallback(
    () => goUp({ screen: 'holders', ...(eventFilter ? { event: eventFilter } : {}) }),
    [eventFilter],
  );
  const { cursor } = pages;
  const tickets = useQuery({
    queryKey: consoleKeys.tickets.list(search, status, event, cursor),
    queryFn: (): Promise<Page<TicketItem>> =>
      org.GET('/v1/org/tickets', {
        params: {
          query: {
            search: search.trim() || undefined,
            status: organisations.ticketStatus.options.find((s) => s === status),
            event: event || undefined,
            cursor,
            limit: 25,
          },
        },
      }),
  });
  // A search the API refuses (too long, a NUL) is shown at the search field (issue 41, point 2).
  const searchError = tickets.error instanceof ApiError && tickets.error.fields.search !== undefined;
  return (
    <section className="stack">
      <h1>{t('console.holders.title')}</h1>
      <form
        className="row"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          const value = data.get('search');
          setSearch(typeof value === 'string' ? value : '');
          pages.reset();
        }}
      >
        <Field
          label={t('console.holders.search')}
          name="search"
          type="search"
          defaultValue={search}
          helper={t('console.holders.search_help')}
          error={searchError ? fieldErrorText(t, 'search') : undefined}
        />
        <div className="field">
          <label className="field__label" htmlFor="holders-status">
            {t('console.holders.status')}
          </label>
          <select
            id="holders-status"
            className="select"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              pages.reset();
            }}
          >
            <option value="">{t('console.holders.any_status')}</option>
            {organisations.ticketStatus.options.map((s) => (
              <option key={s} value={s}>
                {t(`console.status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="holders-event">
            {t('console.holders.event')}
          </label>
          <select
            id="holders-event"
            className="select"
            value={event}
            onChange={(e) => {
              const chosen = e.target.value;
              navigate({ screen: 'holders', ...(chosen ? { event: chosen } : {}) }, { replace: true });
              pages.reset();
            }}
          >
            <option value="">{t('console.holders.any_event')}</option>
            {events.map((e) => (
              <option key={e.externalId} value={e.externalId!}>
                {e.name}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit">{t('console.holders.find')}</Button>
        <Button
          type="button"
          variant="secondary"
          disabled={!event}
          loading={exportCsv.isPending}
          onClick={() => exportCsv.mutate()}
          title={event ? undefined : t('console.holders.export_choose')}
        >
          {t('console.holders.export')}
        </Button>
      </form>
      {!event && <p className="muted">{t('console.holders.export_choose')}</p>}
      {exportCsv.isError && (
        <p className="error" role="alert">
          {errorText(t, exportCsv.error)}
        </p>
      )}
      <TableRegion label={t('console.holders.title')} card>
        <table>
          <caption className="visually-hidden">{t('console.holders.title')}</caption>
          <thead>
            <tr>
              <th>{t('console.holders.ticket')}</th>
              <th>{t('console.holders.holder')}</th>
              <th>{t('console.holders.event')}</th>
              <th>{t('console.holders.status')}</th>
              <th>
                <span className="visually-hidden">{t('console.holders.open')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tickets.data?.items.map((tk) => (
              <tr key={tk.externalId}>
                <td>
                  {tk.externalId} <span className="muted">· #{tk.number}</span>
                </td>
                <td>
                  {tk.holder ? (tk.holder.name ? `${tk.holder.name} <${tk.holder.email}>` : tk.holder.email) : '—'}
                  {tk.holder?.emailStatus === 'bounced' && (
                    <>
                      {' '}
                      <span className="badge badge--warning">{t('console.holders.email_bounced_badge')}</span>
                    </>
                  )}
                </td>
                <td>{tk.eventExternalId}</td>
                <td>
                  <span className="badge">{t(`console.status.${tk.status}`)}</span>
                </td>
                <td>
                  <Button
                    variant="secondary"
                    className="btn--small"
                    onClick={() => tk.externalId !== null && open(tk.externalId)}
                    aria-label={`${t('console.holders.open')}: ${tk.externalId}`}
                  >
                    {t('console.holders.open')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <QueryState query={tickets} empty={tickets.data?.items.length === 0} none={t('console.holders.none')} />
      </TableRegion>
      <Pager pages={pages} nextCursor={tickets.data?.nextCursor} />
      {ticket && <TicketDrawer externalId={ticket} onClose={close} />}
    </section>
  );
}

function TicketDrawer({ externalId, onClose }: { externalId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const ticket = useQuery({
    queryKey: consoleKeys.tickets.detail(externalId),
    queryFn: (): Promise<TicketDetail> => org.GET('/v1/org/tickets/{externalId}', { params: { path: { externalId } } }),
  });
  const resend = useMutation({
    mutationFn: (): Promise<{ email: string }> =>
      org.POST('/v1/org/tickets/{externalId}/resend', { params: { path: { externalId } } }),
  });
  const revoke = useMutation({
    mutationFn: () => org.DELETE('/v1/org/tickets/{externalId}', { params: { path: { externalId } } }),
    onSuccess: async () => {
      setConfirming(false);
      await client.invalidateQueries({ queryKey: consoleKeys.tickets.all });
    },
  });
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener?.focus();
    };
  }, [onClose]);
  const person = (p: { email: string; name: string | null } | null | undefined) =>
    p ? (p.name ? `${p.name} (${p.email})` : p.email) : '—';
  const tk = ticket.data;
  return (
    <div className="drawer-backdrop">
      <div
        className="drawer stack"
        role="dialog"
        aria-modal="true"
        aria-labelledby="drawer-title"
        tabIndex={-1}
        ref={ref}
      >
        <div className="row">
          <h2 id="drawer-title" style={{ marginRight: 'auto' }}>
            {t('console.holders.ticket')} {externalId}
          </h2>
          <Button variant="ghost" className="btn--small" onClick={onClose}>
            {t('console.close')}
          </Button>
        </div>
        <QueryState query={ticket} />
        {tk && (
          <>
            <p>
              <span className="badge">{t(`console.status.${tk.status}`)}</span> · {tk.holder?.email ?? '—'}
            </p>
            <p data-testid="ticket-number">{t('console.holders.number', { number: `#${tk.number}` })}</p>
            {(tk.holder?.emailStatus === 'bounced' || tk.holder?.emailStatus === 'failing') && (
              <p className="error" data-testid="email-status">
                {emailStatusText(t, tk.holder.emailStatus, tk.holder.emailStatusDetail)}
              </p>
            )}
            <h3>{t('console.holders.history')}</h3>
            <ol className="history">
              {tk.history.map((h, i) => (
                <li key={i}>
                  <strong>{t(`console.history.${h.kind}`)}</strong> · {when(h.at)}
                  {h.kind === 'transferred' && (
                    <div className="muted">
                      {t('console.history.from_to', { from: person(h.from), to: person(h.to) })}
                    </div>
                  )}
                  {h.kind === 'checked_in' && (
                    <div className="muted">
                      {h.doorKey ?? t('console.history.platform_key')} ·{' '}
                      {h.offline ? t('console.history.offline') : t('console.history.online')}
                    </div>
                  )}
                </li>
              ))}
            </ol>
            {tk.status !== 'revoked' && tk.holder && (
              <div className="stack">
                <div className="row">
                  <Button variant="secondary" loading={resend.isPending} onClick={() => resend.mutate()}>
                    {t('console.holders.resend')}
                  </Button>
                </div>
                {resend.isSuccess && <p role="status">{t('console.holders.resent', { email: resend.data.email })}</p>}
                {resend.isError && (
                  <p className="error" role="alert">
                    {errorText(t, resend.error)}
                  </p>
                )}
              </div>
            )}
            {tk.status !== 'revoked' &&
              (confirming ? (
                <div className="card stack" role="alertdialog" aria-labelledby="revoke-q">
                  <p id="revoke-q">{t('console.holders.revoke_confirm', { id: externalId })}</p>
                  {revoke.isError && (
                    <p className="error" role="alert">
                      {errorText(t, revoke.error)}
                    </p>
                  )}
                  <div className="row">
                    <Button variant="danger" loading={revoke.isPending} onClick={() => revoke.mutate()}>
                      {t('console.holders.revoke_yes')}
                    </Button>
                    <Button variant="ghost" onClick={() => setConfirming(false)}>
                      {t('console.cancel')}
                    </Button>
                  </div>
                </div>
              ) : (
                <Button variant="danger" onClick={() => setConfirming(true)}>
                  {t('console.holders.revoke')}
                </Button>
              ))}
          </>
        )}
      </div>
    </div>
  );
}
