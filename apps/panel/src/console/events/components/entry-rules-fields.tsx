/**
 * The entry rules of the ticket type form (issue 48, decision 050): how often a ticket admits (`entries`: once, once
 * per day, or again after an exit scan), on which of the event's days (checkboxes of the event-local dates from its
 * start to its end, for an event of more than one day; none ticked: every day) and to which zones (a list of names
 * typed one by one; none: every zone). The values are the form's `days`, `entries`, `zones` (save-ticket-type.api.ts).
 */
import type { KeyboardEvent } from 'react';
import { useController, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { EntryRules } from '@tp/contract/entry-rules';
import { langOf } from '@tp/contract/format';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { SelectField } from '../../select-field';
import type { EventItem } from '../../events-list.api';
import { splitZones, type TypeFields } from '../api/save-ticket-type.api';
import { dayLabel, eventDays } from './event-days';

const ENTRIES = ['once', 'once_per_day', 'reentry'] as const;

/** The most zones a type lists, and the longest name (the contract's `entryRules.zones`, `zoneName`). */
const MAX_ZONES = 20;
const MAX_ZONE_LENGTH = 40;

export function EntryRulesFields({ form, event }: { form: UseFormReturn<TypeFields>; event: EventItem }) {
  const { t } = useTranslation();
  const lang = langOf(document.documentElement.lang);
  const kept = form.formState.defaultValues?.days ?? [];
  const entries = useWatch({ control: form.control, name: 'entries' });
  // The event's days, and any day the rules name outside them (the event moved since): each can be unticked.
  const days = [...new Set([...eventDays(event.startsAt, event.endsAt, event.timeZone), ...kept])]
    .filter((d): d is string => !!d)
    .sort();
  return (
    <fieldset className="stack" data-testid="entry-rules">
      <legend>{t('console.types.entry_rules')}</legend>
      <SelectField
        id="type-entries"
        label={t('console.types.entries')}
        aria-describedby="type-entries-help"
        {...form.register('entries')}
      >
        {ENTRIES.map((k) => (
          <option key={k} value={k}>
            {t(`console.types.entries_${k}`)}
          </option>
        ))}
      </SelectField>
      <p id="type-entries-help" className="field__helper" style={{ marginTop: -8 }}>
        {t(`console.types.entries_help_${entries}`)}
      </p>
      {days.length > 1 && (
        <fieldset className="checks" data-testid="entry-days" aria-describedby="type-days-help">
          <legend>{t('console.types.days')}</legend>
          <p id="type-days-help" className="muted" style={{ flexBasis: '100%', margin: 0 }}>
            {t('console.types.days_help', { zone: event.timeZone })}
          </p>
          {days.map((d) => (
            <label key={d} className="check">
              <input type="checkbox" value={d} {...form.register('days')} /> {dayLabel(d, lang)}
            </label>
          ))}
        </fieldset>
      )}
      <ZoneList form={form} />
    </fieldset>
  );
}

/**
 * The type's zones as a list of tags: names typed are added with Enter or "Add zone" (commas separate several); names
 * typed and not added are saved with them (`zoneDraft`), so nothing typed is lost on Save. Each tag has its remove
 * button.
 */
function ZoneList({ form }: { form: UseFormReturn<TypeFields> }) {
  const { t } = useTranslation();
  const {
    field: { value: zones, onChange },
  } = useController({ control: form.control, name: 'zones' });
  const tooLong = t('console.types.zone_too_long', { max: MAX_ZONE_LENGTH });
  const tooMany = t('console.types.zones_too_many', { max: MAX_ZONES });
  const merged = (typed: string) => [...new Set([...zones, ...splitZones(typed)])];
  const draft = form.register('zoneDraft', {
    validate: (typed) =>
      splitZones(typed).some((n) => n.length > MAX_ZONE_LENGTH)
        ? tooLong
        : merged(typed).length > MAX_ZONES
          ? tooMany
          : true,
  });
  const add = async () => {
    const typed = form.getValues('zoneDraft');
    if (!(await form.trigger('zoneDraft'))) return;
    onChange(merged(typed));
    form.setValue('zoneDraft', '');
  };
  const error = form.formState.errors.zoneDraft?.message;
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    void add();
  };
  return (
    <div className="stack">
      <div className="zone-add">
        <Field
          label={t('console.types.zones')}
          error={error}
          // The help under the tags describes the input (the error does, when there is one).
          {...(error ? {} : { 'aria-describedby': 'type-zones-help' })}
          maxLength={200}
          onKeyDown={onKey}
          {...draft}
        />
        <Button variant="secondary" onClick={() => void add()}>
          {t('console.types.zone_add')}
        </Button>
      </div>
      {zones.length > 0 && (
        <ul className="tags" aria-label={t('console.types.zones_listed')} data-testid="zone-tags">
          {zones.map((z) => (
            <li key={z} className="badge tag">
              {z}
              <button
                type="button"
                className="tag__remove"
                aria-label={t('console.types.zone_remove', { zone: z })}
                onClick={() => onChange(zones.filter((o) => o !== z))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <p id="type-zones-help" className="field__helper">
        {t('console.types.zones_help')}
      </p>
    </div>
  );
}

/**
 * A type's rules in a few words for the types table: "Re-entry · 2 days · VIP, Backstage"; "Once" for none.
 */
export function rulesSummary(t: TFunction, rules: EntryRules | null): string {
  return [
    t(`console.types.entries_${rules?.entries ?? 'once'}`),
    ...(rules?.days ? [t('console.types.days_count', { count: rules.days.length })] : []),
    ...(rules?.zones ? [rules.zones.join(', ')] : []),
  ].join(' · ');
}
