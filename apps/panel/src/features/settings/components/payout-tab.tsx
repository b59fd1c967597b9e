/** Settings payout tab. Placeholder until its issue lands. */
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../ui/bits';

export function PayoutTab() {
  const { t } = useTranslation();
  return <EmptyState message={t('hub.coming_soon_text')} />;
}
