/**
 * The offer of a passkey after a sign-in (issue 47, decision 049): "Sign in faster next time with a passkey", with
 * "Add a passkey" and "Not now" (not asked again on this device for 30 days; closing it counts as "Not now"). Shown
 * once a session (passkey-offer-state.ts says when it is due), on a signed-in screen (not over the personal-data
 * step), and only when the account has no passkey. Loaded lazily by app/signed-in-effects.tsx with its texts.
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { loadCatalogue } from '../../../lib/feature-catalogues';
import { AUTH_TABS } from '../../../lib/routing';
import { useRoute } from '../../../lib/use-route';
import { ConfirmModal } from '../../../ui/confirm-modal';
import { passkeysQuery } from '../api/passkeys.api';
import { dismissPasskeyOffer, markPasskeyOffered } from '../passkey-offer-state';
import { useAddPasskey } from '../use-add-passkey';

/** The offer with its texts (and the step-up catalogue's `api.auth.passkey_*` refusals), for `lazy()`. */
export const withTexts = () =>
  Promise.all([loadCatalogue('passkeys'), loadCatalogue('step_up')]).then(() => ({ default: PasskeyOffer }));

function PasskeyOffer() {
  const { t } = useTranslation();
  const route = useRoute();
  const passkeys = useQuery(passkeysQuery);
  const [open, setOpen] = useState(true);
  const [cancelled, setCancelled] = useState(false);
  const { adding, add } = useAddPasskey(() => setCancelled(true));
  const show = open && passkeys.data?.length === 0 && !AUTH_TABS.includes(route.tab);
  useEffect(() => {
    if (show) markPasskeyOffered();
  }, [show]);
  if (!show) return null;
  const notNow = () => {
    dismissPasskeyOffer();
    setOpen(false);
  };
  return (
    <ConfirmModal
      title={t('passkey_offer.title')}
      keepLabel={t('passkey_offer.not_now')}
      confirmLabel={t('account_passkeys.add')}
      pending={adding}
      onConfirm={() => {
        setCancelled(false);
        void add().then((added) => added && setOpen(false));
      }}
      onClose={notNow}
    >
      <div className="stack-sm">
        <p>{t('account_passkeys.intro')}</p>
        {cancelled && (
          <p className="muted" role="status">
            {t('account_passkeys.cancelled')}
          </p>
        )}
      </div>
    </ConfirmModal>
  );
}
