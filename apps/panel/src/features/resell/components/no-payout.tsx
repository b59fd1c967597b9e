/**
 * The no-payout-account toast (spec section 8, Resell create): the message of `api.resell.create.no_stripe`,
 * shown for NO_PAYOUT_TOAST_MS (30 s), with a link 'here' to the settings payout tab and the follow-up
 * message (`api.resell.create.no_stripe2`, whose `{{here}}` is where the link goes).
 */
import type { ToastContentProps } from 'react-toastify';
import { toast } from '../../../lib/toast';
import { createListing } from '../api/resell-create.api';
import { useTranslation } from 'react-i18next';
import { NO_PAYOUT_TOAST_MS, SETTINGS_TAB_PAYOUT } from '@tp/contract/constants';
import { routeToSearch, type Route } from '../../../lib/routing';
import { navigate } from '../../../lib/use-route';

const PAYOUT_ROUTE: Partial<Route> = {
  tab: 'SETTINGS',
  settingsTab: SETTINGS_TAB_PAYOUT,
  overlay: null,
  userTicketId: null,
  ticketName: null,
};
const MARK = '\u0000';

function NoPayoutMessage({ closeToast }: Partial<ToastContentProps>) {
  const { t } = useTranslation();
  const [before, after = ''] = t('api.resell.create.no_stripe2', { here: MARK }).split(MARK);
  const href = `${window.location.pathname}?${routeToSearch(PAYOUT_ROUTE, new URLSearchParams(window.location.search)).toString()}`;
  return (
    <div className="resell-toast">
      <strong>{t('api.resell.create.no_stripe')}</strong>
      <p>
        {before}
        <a
          href={href}
          onClick={(e) => {
            e.preventDefault();
            closeToast?.();
            navigate(PAYOUT_ROUTE);
          }}
        >
          {t('api.resell.create.here')}
        </a>
        {after}
      </p>
    </div>
  );
}

/** Shows the toast once (a second failure replaces it; a listing that works dismisses it). */
export function showNoPayoutToast(): void {
  toast.error((p: ToastContentProps) => <NoPayoutMessage closeToast={p.closeToast} />, {
    // One at a time (a new failure replaces it) and dismissed once a listing succeeds (issue 13).
    action: createListing,
    autoClose: NO_PAYOUT_TOAST_MS,
    closeOnClick: false,
  });
}
