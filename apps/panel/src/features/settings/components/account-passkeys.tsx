/**
 * "Passkeys" on the account tab (issue 47, decision 049): the account's passkeys (name, added, last used), "Remove"
 * (asked first; a step-up route, the panel's client opens "Confirm it's you" when needed) and "Add a passkey" (the
 * browser makes it: a refusal or a cancel there is said calmly, not as an error). A browser without WebAuthn is told
 * so instead of the button. Loaded with its texts (the `passkeys` catalogue) and the step-up catalogue, which holds
 * the `api.auth.passkey_*` refusals.
 */
import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../../lib/api-client';
import { loadCatalogue } from '../../../lib/feature-catalogues';
import { formatWhen } from '../../../lib/format';
import { queryKeys } from '../../../lib/query-keys';
import { toast } from '../../../lib/toast';
import { passkeysSupported } from '../../../lib/webauthn';
import { Skeleton, ErrorState } from '../../../ui/bits';
import { Button } from '../../../ui/button';
import { ConfirmModal } from '../../../ui/confirm-modal';
import { passkeysQuery, removePasskey, type Passkey } from '../api/passkeys.api';
import { useAddPasskey } from '../use-add-passkey';
import '../passkeys.css';

/** The section with its texts, for `lazy()`. */
export const withTexts = () =>
  Promise.all([loadCatalogue('passkeys'), loadCatalogue('step_up')]).then(() => ({ default: AccountPasskeys }));

function RemoveDialog(props: { passkey: Passkey; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setRefusal(null);
    try {
      await removePasskey(props.passkey.id);
    } catch (err) {
      setRefusal(t(errorKey(err)));
      setBusy(false);
      return;
    }
    await qc.invalidateQueries({ queryKey: queryKeys.user.passkeys });
    toast.success(t('account_passkeys.removed'));
    props.onClose();
  };
  return (
    <ConfirmModal
      title={t('account_passkeys.remove_title')}
      keepLabel={t('common.cancel')}
      confirmLabel={t('account_passkeys.remove')}
      confirmVariant="danger"
      pending={busy}
      onConfirm={() => void confirm()}
      onClose={props.onClose}
    >
      <div className="stack-sm">
        <p>{t('account_passkeys.remove_text', { name: props.passkey.name })}</p>
        {refusal && (
          <p className="account-data__refusal" role="alert">
            {refusal}
          </p>
        )}
      </div>
    </ConfirmModal>
  );
}

function PasskeyList(props: { passkeys: Passkey[]; onRemove: (p: Passkey) => void }) {
  const { t } = useTranslation();
  if (props.passkeys.length === 0) return <p className="muted">{t('account_passkeys.empty')}</p>;
  return (
    <ul className="passkeys__list">
      {props.passkeys.map((p) => (
        <li key={p.id} className="passkeys__item">
          <div className="passkeys__about">
            <p className="passkeys__name">{p.name}</p>
            <p className="muted">
              {t('account_passkeys.added', { date: formatWhen(p.createdAt) })}
              {' · '}
              {p.lastUsedAt
                ? t('account_passkeys.last_used', { date: formatWhen(p.lastUsedAt) })
                : t('account_passkeys.never_used')}
            </p>
          </div>
          <Button
            variant="secondary"
            aria-label={t('account_passkeys.remove_label', { name: p.name })}
            onClick={() => props.onRemove(p)}
          >
            {t('account_passkeys.remove')}
          </Button>
        </li>
      ))}
    </ul>
  );
}

function AccountPasskeys() {
  const { t } = useTranslation();
  const id = useId();
  const passkeys = useQuery(passkeysQuery);
  const [cancelled, setCancelled] = useState(false);
  const { adding, add } = useAddPasskey(() => setCancelled(true));
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const supported = passkeysSupported();
  return (
    <section className="box account-card" aria-labelledby={`${id}-title`} aria-busy={passkeys.isLoading}>
      <h2 id={`${id}-title`} className="section-title">
        {t('account_passkeys.title')}
      </h2>
      <p className="muted passkeys__intro">{t('account_passkeys.intro')}</p>
      {passkeys.isLoading ? (
        <Skeleton height={56} radius={10} />
      ) : passkeys.isError ? (
        <ErrorState
          message={t('account_passkeys.load_failed')}
          onRetry={passkeys.refetch}
          retrying={passkeys.isFetching}
        />
      ) : (
        <PasskeyList passkeys={passkeys.data ?? []} onRemove={setRemoving} />
      )}
      {supported ? (
        <div className="account-actions">
          <Button
            variant="secondary"
            loading={adding}
            onClick={() => {
              setCancelled(false);
              void add();
            }}
          >
            {t('account_passkeys.add')}
          </Button>
        </div>
      ) : (
        <p className="muted">{t('account_passkeys.unsupported')}</p>
      )}
      {cancelled && (
        <p className="muted" role="status">
          {t('account_passkeys.cancelled')}
        </p>
      )}
      {removing && <RemoveDialog passkey={removing} onClose={() => setRemoving(null)} />}
    </section>
  );
}
