/**
 * The payout-account requirement (spec sections 2 Resell, 8 Resell create; issue 23): the message of
 * `api.resell.create.no_stripe` with the follow-up (`api.resell.create.no_stripe2`, whose `{{here}}` is a link
 * to the settings payout tab). Shown above the resale form while the holder has no verified payout account
 * (`PayoutNotice`), and as the spec's 30 s toast (NO_PAYOUT_TOAST_MS) when creating a listing answers it anyway.
 * Following the link keeps the form as it was (lib/resell-draft): the payout tab's way back restores it.
 */
import type { ToastContentProps } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { NO_PAYOUT_TOAST_MS } from '@tp/contract/constants';
import { toast } from '../../../lib/toast';
import { routeToSearch } from '../../../lib/routing';
import { navigate } from '../../../lib/use-route';
import { PAYOUT_ROUTE, saveResellDraft, type ResellDraft } from '../../../lib/resell-draft';
import { createListing } from '../api/resell-create.api';

const MARK = '\u0000';

/** The two sentences with the 'here' link; `draft()` is the form to keep (null: nothing chosen yet). */
function NoPayoutMessage(props: { draft: () => ResellDraft | null; onFollow?: () => void; headingId?: string }) {
  const { t } = useTranslation();
  const [before, after = ''] = t('api.resell.create.no_stripe2', { here: MARK }).split(MARK);
  const href = `${window.location.pathname}?${routeToSearch(PAYOUT_ROUTE, new URLSearchParams(window.location.search)).toString()}`;
  return (
    <>
      <strong id={props.headingId}>{t('api.resell.create.no_stripe')}</strong>
      <p>
        {before}
        <a
          href={href}
          onClick={(e) => {
            e.preventDefault();
            const draft = props.draft();
            if (draft) saveResellDraft(draft);
            props.onFollow?.();
            navigate(PAYOUT_ROUTE);
          }}
        >
          {t('api.resell.create.here')}
        </a>
        {after}
      </p>
    </>
  );
}

/** The requirement above the form, before anything is filled in (issue 23). */
export function PayoutNotice(props: { draft: () => ResellDraft | null }) {
  return (
    <section className="resell-notice" aria-labelledby="resell-payout-notice">
      <NoPayoutMessage draft={props.draft} headingId="resell-payout-notice" />
    </section>
  );
}

/** Shows the toast once (a second failure replaces it; a listing that works dismisses it). */
export function showNoPayoutToast(draft: ResellDraft): void {
  toast.error(
    (p: ToastContentProps) => (
      <div className="resell-toast">
        <NoPayoutMessage draft={() => draft} onFollow={p.closeToast} />
      </div>
    ),
    {
      // One at a time (a new failure replaces it) and dismissed once a listing succeeds (issue 13).
      action: createListing,
      autoClose: NO_PAYOUT_TOAST_MS,
      closeOnClick: false,
    },
  );
}
