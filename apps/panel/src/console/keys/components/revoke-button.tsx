/** A key's revoke button that asks first: Revoke, then "Yes, revoke" (danger) and Cancel in its row's cell. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFooter } from '../../form-footer';
import { RowButton } from '../../table-region';

export function RevokeButton({ name, onRevoke, pending }: { name: string; onRevoke: () => void; pending: boolean }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  if (!asking) return <RowButton label={t('console.keys.revoke')} name={name} onClick={() => setAsking(true)} />;
  return (
    <span className="row" role="group" aria-label={t('console.keys.revoke_confirm', { name })}>
      <FormFooter
        bare
        danger
        small
        submit={t('console.keys.revoke_yes')}
        pending={pending}
        onSubmit={onRevoke}
        onCancel={() => setAsking(false)}
      />
    </span>
  );
}
