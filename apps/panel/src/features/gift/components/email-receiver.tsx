/**
 * Receiver by e-mail (spec sections 2 Gift, 5): required and valid, the message (translated) shown only
 * when the field is touched and in error; the holder's own address (`ownEmail`) is refused here with
 * `gift_tickets.cannot_gift_to_self` (issue 40), not only by the server at the last step.
 * Confirm is disabled while invalid or untouched (nothing typed yet).
 */
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/button';
import { Field, touchedError } from '../../../ui/field';
import { giftEmailSchema, type GiftEmailForm } from '../gift.validation';

export function EmailReceiver(props: { initial?: string; ownEmail?: string; onConfirm: (email: string) => void }) {
  const { t } = useTranslation();
  // The holder's address may arrive after the first render: useForm takes the latest resolver on each render.
  const schema = useMemo(() => giftEmailSchema(props.ownEmail), [props.ownEmail]);
  const { register, handleSubmit, formState } = useForm<GiftEmailForm>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { email: props.initial ?? '' },
  });
  // Read every formState flag unconditionally: react-hook-form only tracks the flags read during render.
  const { isValid, isDirty } = formState;
  const message = touchedError(t, formState, 'email', 'validation.email_required');
  return (
    <form className="stack" noValidate onSubmit={handleSubmit(({ email }) => props.onConfirm(email))}>
      <Field
        label={t('gift.email_label')}
        type="email"
        autoComplete="off"
        inputMode="email"
        placeholder={t('gift.email_placeholder')}
        error={message}
        helper={t('gift.email_helper')}
        {...register('email')}
      />
      <Button type="submit" disabled={!isValid || !(isDirty || Boolean(props.initial))}>
        {t('gift.confirm_receiver')}
      </Button>
    </form>
  );
}
