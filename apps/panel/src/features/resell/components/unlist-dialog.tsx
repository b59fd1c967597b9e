/** The unlist confirmation (spec section 2 Resell): keep listed, or delist -> POST /resell/unlist. */
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { errorKey } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { Modal } from '../../../ui/modal';
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
    <Modal
      title={t('resell.unlist_title')}
      onClose={props.onClose}
      footer={
        <div className="resell-actions">
          <Button variant="secondary" onClick={props.onClose} disabled={unlist.isPending}>
            {t('resell.keep_listed')}
          </Button>
          <Button variant="danger" loading={unlist.isPending} onClick={() => void onDelist()}>
            {t('resell.delist')}
          </Button>
        </div>
      }
    >
      <p>{t('resell.unlist_text', { name: props.listing.name })}</p>
    </Modal>
  );
}
