/** The e-mailed 6-digit code's input of the console's sign-in and its step-up sheet (label `console.code`). */
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../ui/field';

export function CodeField({ form }: { form: UseFormReturn<{ code: string }> }) {
  const { t } = useTranslation();
  return (
    <Field
      label={t('console.code')}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      error={form.formState.errors.code?.message}
      {...form.register('code', { required: true })}
    />
  );
}
