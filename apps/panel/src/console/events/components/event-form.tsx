/**
 * The event form (issue 21): a new event, or an event edited (its id read-only), the times typed as wall times in
 * the event's time zone (zoned-time.ts); saved by PUT /v1/org/events/{externalId} (save-event.api.ts). The API's
 * field errors show at their fields (server-errors.tsx). Once an edited event's time or place differs from the saved
 * one, the form says how many holders will be e-mailed and lets the organiser choose (change-notice.tsx, issue 46).
 */
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../ui/field';
import { countryOptions } from '../../country-names';
import { FormFooter } from '../../form-footer';
import { SelectField } from '../../select-field';
import { ErrorBlock, fieldErrorText, useServerErrors } from '../../server-errors';
import { isTimeZone, isoToZoned } from '../../zoned-time';
import type { EventItem } from '../../events-list.api';
import {
  EVENT_COUNTRIES,
  TIME_AND_PLACE_FIELDS,
  useSaveEvent,
  type EventCountry,
  type EventFields,
} from '../api/save-event.api';
import { ChangeNotice } from './change-notice';

/** The event's times, the form's `datetime-local` inputs (optional ones with their help). */
const TIMES = [
  ['startsAt', 'console.events.starts_at', undefined],
  ['endsAt', 'console.events.ends_at', undefined],
  ['passRevealAt', 'console.events.pass_reveal_at', 'console.events.pass_reveal_help'],
  ['transfersCloseAt', 'console.events.transfers_close_at', 'console.events.transfers_close_help'],
] as const;

export function EventForm({ event, onDone }: { event: EventItem | null; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const tz = event?.timeZone ?? 'Australia/Sydney';
  const form = useForm<EventFields>({
    defaultValues: {
      externalId: event?.externalId ?? '',
      name: event?.name ?? '',
      venue: event?.venue ?? '',
      city: event?.city ?? '',
      country: (event?.country as EventCountry) ?? 'AU',
      address: event?.address ?? '',
      timeZone: tz,
      startsAt: isoToZoned(event?.startsAt ?? null, tz),
      endsAt: isoToZoned(event?.endsAt ?? null, tz),
      passRevealAt: isoToZoned(event?.passRevealAt ?? null, tz),
      transfersCloseAt: isoToZoned(event?.transfersCloseAt ?? null, tz),
      notify: true,
    },
  });
  const timeAndPlace = useWatch({ control: form.control, name: TIME_AND_PLACE_FIELDS });
  const notifyOn = useWatch({ control: form.control, name: 'notify' });
  const saved = form.formState.defaultValues;
  const timeOrPlaceChanged =
    event !== null && TIME_AND_PLACE_FIELDS.some((k, i) => timeAndPlace[i].trim() !== (saved?.[k] ?? '').trim());
  const { formError, setFormError, show } = useServerErrors(form);
  const save = useSaveEvent(event, { onMutate: () => setFormError(null), onSuccess: onDone, onError: show });
  const err = (name: keyof EventFields) => form.formState.errors[name]?.message;
  const required = { required: t('console.required') };
  return (
    <form className="card stack" onSubmit={(e) => void form.handleSubmit((v) => save.mutate(v))(e)} noValidate>
      <h1>{event ? t('console.events.edit_title', { name: event.name }) : t('console.events.new_title')}</h1>
      <div className="grid">
        <Field
          label={t('console.events.external_id')}
          readOnly={!!event}
          error={err('externalId')}
          {...form.register('externalId', required)}
        />
        <Field label={t('console.events.name')} error={err('name')} {...form.register('name', required)} />
        <Field label={t('console.events.venue')} error={err('venue')} {...form.register('venue', required)} />
        <Field label={t('console.events.address')} error={err('address')} {...form.register('address')} />
        <Field label={t('console.events.city')} error={err('city')} {...form.register('city', required)} />
        <SelectField
          id="event-country"
          label={t('console.events.country')}
          error={err('country')}
          {...form.register('country')}
        >
          {countryOptions(EVENT_COUNTRIES, i18n.language).map(({ code, name }) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </SelectField>
        <Field
          label={t('console.events.time_zone')}
          error={err('timeZone')}
          {...form.register('timeZone', {
            ...required,
            // The wall times are read in this zone before the answer: a zone the browser does not know is refused here,
            // with the API's text for the field.
            validate: (v) => isTimeZone(v.trim()) || fieldErrorText(t, 'timeZone'),
          })}
        />
        {TIMES.map(([name, label, help]) => (
          <Field
            key={name}
            label={t(label)}
            type="datetime-local"
            helper={help && t(help)}
            error={err(name)}
            {...form.register(name, help ? {} : required)}
          />
        ))}
      </div>
      {event?.externalId && timeOrPlaceChanged && (
        <ChangeNotice externalId={event.externalId} notify={form.register('notify')} notifyOn={notifyOn} />
      )}
      <ErrorBlock message={formError} />
      <FormFooter submit={t('console.save')} pending={save.isPending} onCancel={onDone} />
    </form>
  );
}
