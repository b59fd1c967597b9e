/**
 * The detail modal of an event-access item or benefit (spec section 2 Ticket page): name, short
 * description, used/unused badge (or another state's: a cancelled event's access), valid-until (DD.MM.YYYY), the
 * sanitised full description.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from '../../../lib/sanitize';
import { formatValidUntil } from '../../../lib/format';
import { Modal } from '../../../ui/modal';
import { Badge } from '../../../ui/bits';

export interface BenefitDetail {
  name: string;
  shortDescription: string | null;
  fullDescription: string | null;
  used: boolean;
  /** A state that is neither used nor unused (a cancelled event's access, issue 46): its badge in their place. */
  state?: string;
  usedLabel?: string;
  validUntil: string | null;
  timeZone?: string;
}

export function BenefitModal(props: { detail: BenefitDetail; onClose: () => void; children?: ReactNode }) {
  const { t } = useTranslation();
  const d = props.detail;
  return (
    <Modal title={d.name} onClose={props.onClose}>
      <div className="stack">
        {d.shortDescription && <p className="muted">{d.shortDescription}</p>}
        <div className="row-wrap">
          {d.state ? (
            <Badge tone="used">{d.state}</Badge>
          ) : (
            <Badge tone={d.used ? 'used' : 'unused'}>{d.used ? t('ticket.used') : t('ticket.unused')}</Badge>
          )}
          {d.usedLabel && <span className="muted small">{d.usedLabel}</span>}
          {d.validUntil && (
            <span className="muted small">
              {t('ticket.valid_until', { date: formatValidUntil(d.validUntil, d.timeZone) })}
            </span>
          )}
        </div>
        {d.fullDescription && (
          <div className="rich-text" dangerouslySetInnerHTML={{ __html: sanitizeHtml(d.fullDescription) }} />
        )}
        {props.children}
      </div>
    </Modal>
  );
}
