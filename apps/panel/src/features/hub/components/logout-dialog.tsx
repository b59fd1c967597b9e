/** Logout (spec section 2): confirmation, GET /auth/logout, local cleanup, the host's onLogout callback. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';
import { endSession } from '../../../lib/session';
import { postToHost } from '../../../lib/host-bridge';
import { navigate } from '../../../lib/use-route';
import { ConfirmModal } from '../../../ui/confirm-modal';

export function LogoutDialog(props: { onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    // The session ends locally even when the network call fails.
    await client.GET('/v1/auth/logout').catch(() => undefined);
    endSession();
    qc.clear();
    postToHost({ type: 'logout' });
    navigate(
      { tab: 'LOGIN', overlay: null, userTicketId: null, ticketName: null, settingsTab: null },
      { replace: true },
    );
  };
  return (
    <ConfirmModal
      title={t('logout.title')}
      keepLabel={t('common.cancel')}
      confirmLabel={t('logout.confirm')}
      confirmVariant="danger"
      pending={busy}
      onConfirm={confirm}
      onClose={props.onClose}
    >
      <p>{t('logout.text')}</p>
    </ConfirmModal>
  );
}
