/**
 * "Your data" on the account tab (issue 13, item 6): export my data (a JSON download), sign out of other
 * devices, delete my account (confirmation dialog; a refusal shows the server's reason in the dialog).
 * Deleting ends the session here like a logout: local cleanup, the host's onLogout, the sign-in screen.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { errorKey } from '../../../lib/api-client';
import { endSession } from '../../../lib/session';
import { postToHost } from '../../../lib/host-bridge';
import { navigate } from '../../../lib/use-route';
import { Button } from '../../../ui/button';
import { ConfirmModal } from '../../../ui/confirm-modal';
import { deleteAccount, exportAccountData, exportFileName, logoutOtherDevices } from '../api/account-rights.api';

/** Saves a JSON document as a file download. */
function download(name: string, data: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function DeleteDialog(props: { onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setRefusal(null);
    try {
      await deleteAccount();
    } catch (err) {
      setRefusal(t(errorKey(err)));
      setBusy(false);
      return;
    }
    endSession();
    qc.clear();
    postToHost({ type: 'logout' });
    toast.success(t('account_data.deleted'));
    navigate(
      { tab: 'LOGIN', overlay: null, userTicketId: null, ticketName: null, settingsTab: null },
      { replace: true },
    );
  };
  return (
    <ConfirmModal
      title={t('account_data.delete_title')}
      keepLabel={t('common.cancel')}
      confirmLabel={t('account_data.delete_confirm')}
      confirmVariant="danger"
      pending={busy}
      onConfirm={() => void confirm()}
      onClose={props.onClose}
    >
      <div className="stack-sm">
        <p>{t('account_data.delete_text')}</p>
        {refusal && (
          <p className="account-data__refusal" role="alert">
            {refusal}
          </p>
        )}
      </div>
    </ConfirmModal>
  );
}

export function AccountData() {
  const { t } = useTranslation();
  const id = useId();
  const [exporting, setExporting] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const exportData = async () => {
    setExporting(true);
    try {
      const data = await exportAccountData();
      download(exportFileName(data), data);
      toast.success(t('account_data.exported'), { action: exportAccountData });
    } catch (err) {
      toast.error(t(errorKey(err)), { action: exportAccountData });
    } finally {
      setExporting(false);
    }
  };
  const signOutOthers = async () => {
    setSigningOut(true);
    try {
      const { revoked } = await logoutOtherDevices();
      toast.success(t('account_data.signed_out_others', { count: revoked }), { action: logoutOtherDevices });
    } catch (err) {
      toast.error(t(errorKey(err)), { action: logoutOtherDevices });
    } finally {
      setSigningOut(false);
    }
  };
  return (
    <section className="box account-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        {t('account_data.title')}
      </h2>
      <div className="account-data__row">
        <p className="muted">{t('account_data.export_text')}</p>
        <Button variant="secondary" loading={exporting} onClick={() => void exportData()}>
          {t('account_data.export')}
        </Button>
      </div>
      <div className="account-data__row">
        <p className="muted">{t('account_data.sign_out_others_text')}</p>
        <Button variant="secondary" loading={signingOut} onClick={() => void signOutOthers()}>
          {t('account_data.sign_out_others')}
        </Button>
      </div>
      <div className="account-data__row">
        <p className="muted">{t('account_data.delete_text_short')}</p>
        <Button variant="danger" onClick={() => setDeleting(true)}>
          {t('account_data.delete')}
        </Button>
      </div>
      {deleting && <DeleteDialog onClose={() => setDeleting(false)} />}
    </section>
  );
}
