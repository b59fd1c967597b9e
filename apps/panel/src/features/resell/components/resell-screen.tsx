/** RESELL screen (spec section 2). Placeholder until its issue lands. */
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../ui/bits';

export default function ResellScreen() {
  const { t } = useTranslation();
  return <EmptyState message={t('hub.coming_soon_text')} />;
}
