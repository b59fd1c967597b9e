/**
 * The Holders screen's search form: the search (submitted with Find), the status and event filters (applied at
 * once), and the chosen event's attendees export (GET …/attendees.csv; off until an event is chosen).
 */
import { useTranslation } from 'react-i18next';
import { organisations } from '@tp/contract';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { useEvents } from '../../events-list.api';
import { SelectField } from '../../select-field';
import { ErrorBlock, fieldErrorText } from '../../server-errors';
import { useExportAttendees } from '../api/export-attendees.api';

export function HoldersFilters(props: {
  search: string;
  status: string;
  /** The chosen event's id; empty for any. */
  event: string;
  /** True when the API refused the search: its field says what a valid one is. */
  searchError: boolean;
  onSearch: (search: string) => void;
  onStatus: (status: string) => void;
  onEvent: (event: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const { event } = props;
  const upcoming = useEvents('upcoming');
  const past = useEvents('past');
  const events = [...(upcoming.data?.items ?? []), ...(past.data?.items ?? [])].filter((e) => e.externalId !== null);
  const exportCsv = useExportAttendees(event, i18n.language);
  return (
    <>
      <form
        className="row"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const value = new FormData(e.currentTarget).get('search');
          props.onSearch(typeof value === 'string' ? value : '');
        }}
      >
        <Field
          label={t('console.holders.search')}
          name="search"
          type="search"
          defaultValue={props.search}
          helper={t('console.holders.search_help')}
          error={props.searchError ? fieldErrorText(t, 'search') : undefined}
        />
        <SelectField
          id="holders-status"
          label={t('console.holders.status')}
          value={props.status}
          onChange={(e) => props.onStatus(e.target.value)}
        >
          <option value="">{t('console.holders.any_status')}</option>
          {organisations.ticketStatus.options.map((s) => (
            <option key={s} value={s}>
              {t(`console.status.${s}`)}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="holders-event"
          label={t('console.holders.event')}
          value={event}
          onChange={(e) => props.onEvent(e.target.value)}
        >
          <option value="">{t('console.holders.any_event')}</option>
          {events.map((e) => (
            <option key={e.externalId} value={e.externalId!}>
              {e.name}
            </option>
          ))}
        </SelectField>
        <Button type="submit">{t('console.holders.find')}</Button>
        <Button
          type="button"
          variant="secondary"
          disabled={!event}
          loading={exportCsv.isPending}
          onClick={() => exportCsv.mutate()}
          title={event ? undefined : t('console.holders.export_choose')}
        >
          {t('console.holders.export')}
        </Button>
      </form>
      {!event && <p className="muted">{t('console.holders.export_choose')}</p>}
      <ErrorBlock error={exportCsv.error} />
    </>
  );
}
