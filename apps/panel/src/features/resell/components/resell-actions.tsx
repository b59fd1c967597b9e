/**
 * The resale form's buttons (spec section 4 Resell flow): Continue (disabled until the form is dirty and valid and
 * its summary loaded) and Cancel; once locked, the terms checkbox that enables "List for resale", Edit and Cancel.
 */
import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/button';

/**
 * The buttons; `onEdit` unlocks the form, `onList` lists (offered once `terms` are ticked); `listing` while the
 * listing is sent, `continuing` while Continue waits for the summary.
 */
export function ResellActions({
  locked,
  canContinue,
  continuing,
  terms,
  listing,
  onTerms,
  onCancel,
  onEdit,
  onList,
}: {
  locked: boolean;
  canContinue: boolean;
  continuing: boolean;
  terms: boolean;
  listing: boolean;
  onTerms: (agreed: boolean) => void;
  onCancel: () => void;
  onEdit: () => void;
  onList: () => void;
}) {
  const { t } = useTranslation();
  return !locked ? (
    <div className="resell-actions">
      <Button type="submit" disabled={!canContinue} loading={continuing}>
        {t('common.continue')}
      </Button>
      <Button variant="ghost" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
    </div>
  ) : (
    <div className="stack">
      <label className="resell-terms">
        <input type="checkbox" checked={terms} onChange={(ev) => onTerms(ev.target.checked)} />
        <span>{t('resell.terms')}</span>
      </label>
      <div className="resell-actions">
        <Button disabled={!terms} loading={listing} onClick={onList}>
          {t('resell.list')}
        </Button>
        <Button variant="secondary" disabled={listing} onClick={onEdit}>
          {t('resell.edit')}
        </Button>
        <Button variant="ghost" disabled={listing} onClick={onCancel}>
          {t('common.cancel')}
        </Button>
      </div>
    </div>
  );
}
