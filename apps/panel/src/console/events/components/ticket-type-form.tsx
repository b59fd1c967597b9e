/**
 * A ticket type's form (issue 21): a new type of the event or one edited (its id read-only): name, price, currency,
 * stock, what holders may do with it, the other types it may be swapped for, and its entry rules (issue 48,
 * entry-rules-fields.tsx); saved by PUT
 * /v1/org/ticket-types/{externalId} (save-ticket-type.api.ts). The API's field errors show at their fields.
 */
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../ui/field';
import { FormFooter } from '../../form-footer';
import { SelectField } from '../../select-field';
import { ErrorBlock, FieldError, useServerErrors } from '../../server-errors';
import type { EventItem } from '../../events-list.api';
import type { TicketTypeItem } from '../api/ticket-types.api';
import { entryFieldsOf, useSaveTicketType, type TypeFields } from '../api/save-ticket-type.api';
import { EntryRulesFields } from './entry-rules-fields';

export function TicketTypeForm(props: {
  event: EventItem;
  type: TicketTypeItem | null;
  /** The event's types: those but this one are the swap targets offered. */
  others: TicketTypeItem[];
  onDone: () => void;
}) {
  const { event, type, onDone } = props;
  const { t } = useTranslation();
  const form = useForm<TypeFields>({
    defaultValues: {
      externalId: type?.externalId ?? '',
      name: type?.name ?? '',
      price: type ? (type.priceCents / 100).toFixed(2) : '',
      currency: type?.currency ?? (event.country === 'NZ' ? 'NZD' : 'AUD'),
      stock: type ? String(type.stock) : '',
      isGiftable: type?.isGiftable ?? true,
      isResellable: type?.isResellable ?? true,
      isSwappable: type?.isSwappable ?? false,
      swapTargets: type?.swapTargets.map((s) => s.ticketTypeExternalId ?? '') ?? [],
      ...entryFieldsOf(type?.entryRules),
    },
  });
  const { formError, setFormError, show } = useServerErrors(
    form,
    { priceCents: 'price', resaleCapCents: 'price', entryRules: 'zoneDraft' },
    { 'api.org.swap_target_invalid': 'swapTargets', 'api.org.ticket_type_event_locked': 'externalId' },
  );
  const save = useSaveTicketType(event, type, {
    onMutate: () => setFormError(null),
    onSuccess: onDone,
    onError: show,
  });
  const err = (name: keyof TypeFields) => form.formState.errors[name]?.message;
  const required = { required: t('console.required') };
  const targets = props.others.filter((o) => o.externalId && o.externalId !== type?.externalId);
  return (
    <form className="card stack" onSubmit={(e) => void form.handleSubmit((v) => save.mutate(v))(e)} noValidate>
      <h1>{type ? t('console.types.edit_title', { name: type.name }) : t('console.types.new_title')}</h1>
      <div className="grid">
        <Field
          label={t('console.types.external_id')}
          readOnly={!!type}
          error={err('externalId')}
          {...form.register('externalId', required)}
        />
        <Field label={t('console.types.name')} error={err('name')} {...form.register('name', required)} />
        <Field
          label={t('console.types.price')}
          inputMode="decimal"
          error={err('price')}
          {...form.register('price', required)}
        />
        <SelectField
          id="type-currency"
          label={t('console.types.currency')}
          error={err('currency')}
          {...form.register('currency')}
        >
          <option value="AUD">AUD</option>
          <option value="NZD">NZD</option>
        </SelectField>
        <Field
          label={t('console.types.stock')}
          inputMode="numeric"
          helper={t('console.types.stock_help')}
          error={err('stock')}
          {...form.register('stock')}
        />
      </div>
      <fieldset className="stack">
        <legend>{t('console.types.holders_may')}</legend>
        {(['isGiftable', 'isResellable', 'isSwappable'] as const).map((k) => (
          <label key={k} className="check">
            <input type="checkbox" {...form.register(k)} /> {t(`console.types.${k}`)}
          </label>
        ))}
      </fieldset>
      {targets.length > 0 && (
        <fieldset className="stack">
          <legend>{t('console.types.swap_targets')}</legend>
          {targets.map((o) => (
            <label key={o.externalId} className="check">
              <input type="checkbox" value={o.externalId ?? ''} {...form.register('swapTargets')} /> {o.name}
            </label>
          ))}
          <FieldError message={err('swapTargets')} />
        </fieldset>
      )}
      <EntryRulesFields form={form} event={event} />
      <ErrorBlock message={formError} />
      <FormFooter submit={t('console.save')} pending={save.isPending} onCancel={onDone} />
    </form>
  );
}
