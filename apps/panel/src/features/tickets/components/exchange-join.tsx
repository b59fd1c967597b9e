/**
 * My tickets' "Join the queue?" (issue 45): shown when the panel was opened from an event's exchange queue page with a
 * wish to join (lib `joinWishOf`). It names the event, the type, how many and the face value (the queue's public
 * view), and joins in one tap; "Not now" or a join, done or refused (a toast says why), clears the wish from the
 * address. Nothing shows while the view loads; a queue that is closed or gone says so instead of the button.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey, failureKey } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { Button } from '../../../ui/button';
import { JOIN_PARAMS, joinWishOf, useExchangePublic, useJoinExchange, type JoinWish } from '../api/exchange-join.api';

/** Removes the wish from the address (the other parameters stay), so a reload does not ask again. */
function forgetWish() {
  const url = new URL(window.location.href);
  for (const p of JOIN_PARAMS) url.searchParams.delete(p);
  window.history.replaceState(window.history.state, '', url);
}

export function ExchangeJoin() {
  const [wish, setWish] = useState(() => joinWishOf(window.location.search));
  if (!wish) return null;
  const done = () => {
    forgetWish();
    setWish(null);
  };
  return <JoinPrompt wish={wish} onDone={done} />;
}

function JoinPrompt({ wish, onDone }: { wish: JoinWish; onDone: () => void }) {
  const { t } = useTranslation();
  const view = useExchangePublic(wish);
  const join = useJoinExchange();
  if (view.isLoading) return null;
  const type = view.data?.types.find((x) => x.ticketTypeExternalId === wish.ticketTypeExternalId);
  const onJoin = async () => {
    try {
      await join.mutateAsync(wish);
      toast.success(t('exchange_join.done'));
    } catch (err) {
      console.error('exchange join failed', err);
      toast.error(t(errorKey(err)));
    }
    onDone();
  };
  return (
    <section className="box stack-sm" aria-labelledby="exchange-join-title">
      <h2 id="exchange-join-title" className="section-title">
        {t('exchange_join.title')}
      </h2>
      {view.isError || !view.data || !type ? (
        <p role="alert">{view.isError ? t(failureKey(view.error)) : t('api.exchange.join.type_not_found')}</p>
      ) : !view.data.open ? (
        <p role="alert">{t('api.exchange.closed')}</p>
      ) : (
        <p>
          {t('exchange_join.text', {
            count: wish.quantity,
            type: type.name,
            event: view.data.event.name,
            price: formatMoney(type.priceCents / 100, type.currencyCode),
          })}
        </p>
      )}
      <span className="exchange-entry__actions">
        {view.data?.open && type && (
          <Button loading={join.isPending} onClick={() => void onJoin()}>
            {t('exchange_join.join')}
          </Button>
        )}
        <Button variant="ghost" onClick={onDone} disabled={join.isPending}>
          {t('exchange_join.not_now')}
        </Button>
      </span>
    </section>
  );
}
