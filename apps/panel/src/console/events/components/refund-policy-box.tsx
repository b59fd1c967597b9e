/**
 * An event's refund policy in the console (issue 46): who may ask for a refund in their panel: nobody, anyone until a
 * date, once the event is cancelled (until an optional deadline) or once it moved to a new date (until a deadline).
 * The dates are wall times in the event's time zone; saved by PUT (save-refund-policy.api.ts), the API's errors at
 * their fields. The requests themselves are decided on the Refunds screen.
 */
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { organisations } from '@tp/contract';
import type * as z from 'zod';
import { Field } from '../../../ui/field';
import { FormFooter } from '../../form-footer';
import { SelectField } from '../../select-field';
import { ErrorBlock, useServerErrors } from '../../server-errors';
import { isoToZoned } from '../../zoned-time';
import { useSaveRefundPolicy, type RefundPolicy, type RefundPolicyFields } from '../api/save-refund-policy.api';

/** The console's event; its read carries the refund policy once the API has it (issue 46). */
type EventWithPolicy = z.infer<typeof organisations.eventItem> & { externalId: string; refundPolicy?: RefundPolicy };

const MODES = ['none', 'until', 'on_cancel', 'on_reschedule'] as const;

const formValues = (p: RefundPolicy | undefined, tz: string): RefundPolicyFields => ({
  mode: p?.mode ?? 'none',
  until: isoToZoned(p?.until ?? null, tz),
  deadline: isoToZoned(p?.deadline ?? null, tz),
});

export function RefundPolicyBox({ event }: { event: EventWithPolicy }) {
  const { t } = useTranslation();
  const tz = event.timeZone;
  const form = useForm<RefundPolicyFields>({ defaultValues: formValues(event.refundPolicy, tz) });
  const { formError, setFormError, show } = useServerErrors(form);
  const save = useSaveRefundPolicy(event.externalId, tz, {
    onMutate: () => setFormError(null),
    onError: show,
    onSuccess: (answer) => form.reset(formValues(answer, tz)),
  });
  const mode = useWatch({ control: form.control, name: 'mode' });
  const err = (name: keyof RefundPolicyFields) => form.formState.errors[name]?.message;
  const required = { required: t('console.required') };
  const zone = t('console.refund_policy.zone', { zone: tz });
  return (
    <form
      className="card stack"
      aria-labelledby="refund-policy-title"
      onSubmit={(e) => void form.handleSubmit((v) => save.mutate(v))(e)}
      noValidate
    >
      <h2 id="refund-policy-title">{t('console.refund_policy.title')}</h2>
      <p className="muted">{t('console.refund_policy.intro')}</p>
      <div className="grid">
        <SelectField
          id="refund-policy-mode"
          label={t('console.refund_policy.mode')}
          error={err('mode')}
          {...form.register('mode')}
        >
          {MODES.map((m) => (
            <option key={m} value={m}>
              {t(`console.refund_policy.modes.${m}`)}
            </option>
          ))}
        </SelectField>
        {mode === 'until' && (
          <Field
            label={t('console.refund_policy.until')}
            type="datetime-local"
            helper={zone}
            error={err('until')}
            {...form.register('until', required)}
          />
        )}
        {(mode === 'on_cancel' || mode === 'on_reschedule') && (
          <Field
            label={t('console.refund_policy.deadline')}
            type="datetime-local"
            helper={mode === 'on_cancel' ? t('console.refund_policy.deadline_optional', { zone: tz }) : zone}
            error={err('deadline')}
            {...form.register('deadline', mode === 'on_reschedule' ? required : {})}
          />
        )}
      </div>
      <ErrorBlock message={formError} />
      <FormFooter submit={t('console.save')} pending={save.isPending} />
      {save.isSuccess && (
        <p role="status" className="muted">
          {t('console.refund_policy.saved')}
        </p>
      )}
    </form>
  );
}
