/**
 * The user's listings below the resell form (spec section 2 Resell): tabs SALE and SOLD that switch
 * freely. For-sale entries show price, what is left, the listing age in whole days, share and unlist;
 * sold entries show how many sold, the sold date and what the seller receives.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureKey } from '../../../lib/api-client';
import { usePanelConfig } from '../../../lib/queries';
import { assetUrl, formatMoney, formatWhen } from '../../../lib/format';
import { Button } from '../../../ui/button';
import { Skeleton, ErrorState } from '../../../ui/bits';
import { EmptyState } from '../../../ui/empty-state';
import { Tabs } from '../../../ui/tabs';
import { Thumb } from '../../../ui/thumb';
import { useSales } from '../api/resell-sales.api';
import { useSold } from '../api/resell-sold.api';
import { listingAgeDays } from '../resell.rules';
import type { Listing } from '../resell.types';
import { ShareButton } from './share-box';
import { UnlistDialog } from './unlist-dialog';

type Tab = 'SALE' | 'SOLD';

function EntryLogo({ path }: { path: string | null }) {
  const config = usePanelConfig();
  return <Thumb src={assetUrl(path, config?.assetsBaseUrl)} size={64} icon />;
}

function ListState(props: {
  query: { isLoading: boolean; isError: boolean; error?: unknown; refetch: () => unknown; data?: Listing[] };
  empty: string;
  /** What would show here and how to get it (issue 13). */
  hint: string;
  render: (l: Listing) => React.ReactNode;
}) {
  const { t } = useTranslation();
  const q = props.query;
  if (q.isLoading)
    return (
      <div className="stack" aria-busy="true">
        <Skeleton height={88} radius={14} />
        <Skeleton height={88} radius={14} />
      </div>
    );
  if (q.isError || !q.data) return <ErrorState message={t(failureKey(q.error))} onRetry={q.refetch} />;
  if (q.data.length === 0) return <EmptyState message={props.empty} hint={props.hint} />;
  return (
    <ul className="resell-entries">
      {q.data.map((l) => (
        <li key={l.listingId} className="resell-entry">
          {props.render(l)}
        </li>
      ))}
    </ul>
  );
}

/** The listings; `onUnlisted` is told of each listing the holder delists. */
export function Listings(props: { onUnlisted?: (listing: Listing) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [tab, setTab] = useState<Tab>('SALE');
  const [unlisting, setUnlisting] = useState<Listing | null>(null);
  const sales = useSales();
  const sold = useSold();

  const saleEntry = (l: Listing) => {
    const age = listingAgeDays(l.listedDate);
    return (
      <>
        <EntryLogo path={l.ticketLogo} />
        <div className="resell-entry__body">
          <p className="resell-entry__name">{l.name}</p>
          <p className="muted small">
            {t('resell.per_ticket', { price: formatMoney(l.price, l.currencyCode) })} ·{' '}
            {t('resell.left', { count: l.quantity - l.soldQuantity, total: l.quantity })}
          </p>
          <p className="muted small">
            {age === 0 ? t('resell.listed_today') : t('resell.listed_days', { count: age })}
          </p>
          <div className="resell-entry__actions">
            <ShareButton small withCopy url={l.shareLinkUrl} title={l.name} />
            <Button variant="ghost" className="btn--small" onClick={() => setUnlisting(l)}>
              {t('resell.unlist')}
            </Button>
          </div>
        </div>
      </>
    );
  };
  const soldEntry = (l: Listing) => (
    <>
      <EntryLogo path={l.ticketLogo} />
      <div className="resell-entry__body">
        <p className="resell-entry__name">{l.name}</p>
        <p className="muted small">
          {t('resell.sold_count', { count: l.soldQuantity, price: formatMoney(l.price, l.currencyCode) })}
        </p>
        {l.soldDate && <p className="small">{t('resell.sold_on', { date: formatWhen(l.soldDate) })}</p>}
        <p className="small">
          {t('resell.you_receive', { amount: formatMoney(l.price * l.soldQuantity, l.currencyCode) })}
        </p>
      </div>
    </>
  );

  return (
    <section className="stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        {t('resell.my_listings')}
      </h2>
      <Tabs
        label={t('resell.my_listings')}
        value={tab}
        onChange={setTab}
        options={[
          { value: 'SALE', label: t('resell.tab_sale') },
          { value: 'SOLD', label: t('resell.tab_sold') },
        ]}
      />
      <div role="tabpanel" aria-label={tab === 'SALE' ? t('resell.tab_sale') : t('resell.tab_sold')}>
        {tab === 'SALE' ? (
          <ListState
            query={sales}
            empty={t('resell.empty_sale')}
            hint={t('feedback.sale_empty_hint')}
            render={saleEntry}
          />
        ) : (
          <ListState
            query={sold}
            empty={t('resell.empty_sold')}
            hint={t('feedback.sold_empty_hint')}
            render={soldEntry}
          />
        )}
      </div>
      {unlisting && (
        <UnlistDialog listing={unlisting} onClose={() => setUnlisting(null)} onUnlisted={props.onUnlisted} />
      )}
    </section>
  );
}
