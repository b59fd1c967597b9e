/** The unlist confirmation (spec section 2 Resell): keep listed, or delist -> POST /resell/unlist. */
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { errorKey } from '../../../lib/api-client';
import { ConfirmModal } from '../../../ui/confirm-modal';
import { unlist as unlistCall, useUnlist } from '../api/resell-unlist.api';
import type { Listing } from '../resell.types';

export function UnlistDialog(props: {
  listing: Listing;
  onClose: () => void;
  onUnlisted?: (listing: Listing) => void;
}) {
  const { t } = useTranslation();
  const unlist = useUnlist();
  const onDelist = async () => {
    try {
      await unlist.mutateAsync(props.listing.userTicketId);
      toast.success(t('resell.delisted'), { action: unlistCall });
      props.onUnlisted?.(props.listing);
      props.onClose();
    } catch (err) {
      console.error('unlist failed', err);
      toast.error(t(errorKey(err)), { action: unlistCall });
    }
  };
  return (
    <ConfirmModal
      title={t('resell.unlist_title')}
      keepLabel={t('resell.keep_listed')}
      confirmLabel={t('resell.delist')}
      confirmVariant="danger"
      pending={unlist.isPending}
      onConfirm={() => void onDelist()}
      onClose={props.onClose}
    >
      <p>{t('resell.unlist_text', { name: props.listing.name })}</p>
    </ConfirmModal>
  );
}
