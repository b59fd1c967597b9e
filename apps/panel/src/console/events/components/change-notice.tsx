/**
 * What the event form says before a change of the event's time or place is saved (issue 46): how many holders the
 * change e-mails (GET /v1/org/events/{externalId}/holders, its loading and error states as the console's other
 * screens: query-state.tsx) and the box "E-mail the holders about this change" (checked by default), whose value
 * the save sends as `notify`. Nobody to tell: it says so, without the box.
 */
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../query-state';
import { useEventHolders } from '../api/event-holders.api';

export function ChangeNotice({
  externalId,
  notify,
  notifyOn,
}: {
  externalId: string;
  /** The form's `notify` checkbox. */
  notify: UseFormRegisterReturn<'notify'>;
  /** Whether that box is checked now. */
  notifyOn: boolean;
}) {
  const { t } = useTranslation();
  const holders = useEventHolders(externalId, true);
  const count = holders.data?.holders;
  return (
    <fieldset className="change-notice stack-sm" aria-live="polite">
      <legend>{t('console.events.notice_title')}</legend>
      <QueryState query={holders} loading={t('console.events.holders_loading')} />
      {count === 0 && <p className="muted">{t('console.events.holders_none')}</p>}
      {count !== undefined && count > 0 && (
        <p>{t(notifyOn ? 'console.events.holders_told' : 'console.events.holders_not_told', { count })}</p>
      )}
      {count !== 0 && !holders.isPending && (
        <label className="check">
          <input type="checkbox" {...notify} /> {t('console.events.notify')}
        </label>
      )}
    </fieldset>
  );
}
