/**
 * Holders (issue 21): the organisation's tickets with their current holder, searched by e-mail, name or id,
 * filtered by event and status, paged by cursor; a ticket's drawer with its history, and revoke with a confirm.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { organisations } from '@tp/contract';
import type * as z from 'zod';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { org, query } from './api';
import { consoleKeys } from './console-query-keys';
import { errorText } from './errors';
import { TableRegion } from './table-region';
import { consoleTime as when } from './zoned-time';

type TicketItem = z.infer<typeof organisations.ticketItem>;
type TicketDetail = z.infer<typeof organisations.ticketDetail>;
type Page<T> = { items: T[]; nextCursor: string | null };

export function HoldersScreen() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  const cursor = cursors.at(-1);
  const tickets = useQuery({
    queryKey: consoleKeys.tickets.list(search, status, cursor),
    queryFn: () =>
      org<Page<TicketItem>>(`/tickets${query({ search: search.trim() || undefined, status, cursor, limit: 25 })}`),
  });
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
          setCursors([]);
        }}
      >
        <Field label={t('console.holders.search')} name="search" type="search" defaultValue={search} />
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
              setCursors([]);
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
        <Button type="submit">{t('console.holders.find')}</Button>
      </form>
      {tickets.isError && <p className="error">{errorText(t, tickets.error)}</p>}
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
                <td>{tk.externalId}</td>
                <td>
                  {tk.holder ? (tk.holder.name ? `${tk.holder.name} <${tk.holder.email}>` : tk.holder.email) : '—'}
                </td>
                <td>{tk.eventExternalId}</td>
                <td>
                  <span className="badge">{t(`console.status.${tk.status}`)}</span>
                </td>
                <td>
                  <Button
                    variant="secondary"
                    className="btn--small"
                    onClick={() => setOpen(tk.externalId)}
                    aria-label={`${t('console.holders.open')}: ${tk.externalId}`}
                  >
                    {t('console.holders.open')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {tickets.data?.items.length === 0 && <p className="muted">{t('console.holders.none')}</p>}
      </TableRegion>
      <div className="row">
        <Button
          variant="ghost"
          className="btn--small"
          disabled={cursors.length === 0}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          {t('console.previous')}
        </Button>
        <Button
          variant="ghost"
          className="btn--small"
          disabled={!tickets.data?.nextCursor}
          onClick={() => setCursors((c) => [...c, tickets.data!.nextCursor!])}
        >
          {t('console.next')}
        </Button>
      </div>
      {open && <TicketDrawer externalId={open} onClose={() => setOpen(null)} />}
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
    queryFn: () => org<TicketDetail>(`/tickets/${encodeURIComponent(externalId)}`),
  });
  const revoke = useMutation({
    mutationFn: () => org(`/tickets/${encodeURIComponent(externalId)}`, { method: 'DELETE' }),
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
  const person = (p: { email: string; name: string | null } | null | undefined) => (p ? (p.name ?? p.email) : '—');
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
        {ticket.isError && <p className="error">{errorText(t, ticket.error)}</p>}
        {tk && (
          <>
            <p>
              <span className="badge">{t(`console.status.${tk.status}`)}</span> · {tk.holder?.email ?? '—'}
            </p>
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
