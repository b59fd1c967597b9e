/**
 * Keys (issue 21): door keys for the door scanners (owners and door staff, door-keys.tsx) and, for owners, API keys
 * for machines (api-keys.tsx). A new key is shown once with a copy button (a new door key also with its door
 * set-up link and QR, door-setup.tsx); revoking asks first (revoke-button.tsx) and takes effect at the key's next
 * request.
 */
import { useTranslation } from 'react-i18next';
import { ApiKeys } from './api-keys';
import { DoorKeys } from './door-keys';

export function KeysScreen({ owner }: { owner: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="stack">
      <h1>{t('console.keys.title')}</h1>
      <DoorKeys />
      {owner && <ApiKeys />}
      {!owner && <p className="muted">{t('console.door_only')}</p>}
    </section>
  );
}
