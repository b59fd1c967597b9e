/**
 * The API's field errors at their fields (issue 41, point 2). A 400 `api.invalid_request_body` names the invalid
 * fields (`fields: { "<path>": ["<English zod message>", …] }`, contract `errorBody`); the console shows, at each
 * named field of the form, its catalogue text `console.field_error.<field>` (what a valid value is, in the
 * console's language; `console.invalid` for a field without one), and above the buttons the message key's text
 * plus the fields the form has no input for. Any other error (a message key of a rule, a network failure) is the
 * form's one error text (`errorText`).
 */
import { useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError } from './api';
import { errorText } from './errors';

/** The text of an invalid field: `console.field_error.<name>` (name = the API's field, first path segment). */
export function fieldErrorText(t: TFunction, name: string): string {
  return t(`console.field_error.${name}`, { defaultValue: t('console.invalid') });
}

/**
 * Places an error answer's fields on a react-hook-form form.
 * @param rename the API's field (first path segment: `priceCents`, `eventExternalIds`) → the form's input
 *   (`price`, `events`) where they differ
 * @param keyFields a message key of a rule that is about one input (`api.org.member_exists` → `email`)
 * @returns the form's own error text: the message's text, and the invalid fields the form has no input for
 */
export function placeServerErrors<T extends FieldValues>(
  t: TFunction,
  form: UseFormReturn<T>,
  err: unknown,
  rename: Record<string, string> = {},
  keyFields: Record<string, string> = {},
): string {
  const inputs = new Set(Object.keys(form.getValues()));
  if (!(err instanceof ApiError)) return errorText(t, err);
  const onField = keyFields[err.message];
  if (onField && inputs.has(onField)) {
    form.setError(onField as Path<T>, { type: 'server', message: errorText(t, err) }, { shouldFocus: true });
    return '';
  }
  const elsewhere: string[] = [];
  let first = true;
  for (const path of Object.keys(err.fields)) {
    const name = path.split('.')[0] || '_';
    const input = rename[name] ?? name;
    const text = fieldErrorText(t, name);
    if (inputs.has(input)) {
      form.setError(input as Path<T>, { type: 'server', message: text }, { shouldFocus: first });
      first = false;
    } else if (name !== '_') elsewhere.push(`${name}: ${text}`);
  }
  return [errorText(t, err), ...elsewhere].join(' ');
}

/** `placeServerErrors` as a hook: `show(err)` places an answer's errors, `formError` is the form's own text. */
export function useServerErrors<T extends FieldValues>(
  form: UseFormReturn<T>,
  rename: Record<string, string> = {},
  keyFields: Record<string, string> = {},
) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string | null>(null);
  const show = (err: unknown) => setFormError(placeServerErrors(t, form, err, rename, keyFields) || null);
  return { formError, setFormError, show };
}

/** The error line under an input that is not a `Field` (a select, a group of checkboxes); nothing without one. */
export function FieldError({ id, message }: { id?: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="field__error" role="alert">
      {message}
    </p>
  );
}

/**
 * The one error block of a console form, confirm or action (issue 43): `message`, the form's own text
 * (`useServerErrors().formError`), or else `error`'s catalogue text of its `{ message }` key (`errorText`; a
 * mutation's `error`, null when none); `detail`, what helps below it (muted). Nothing without either.
 */
export function ErrorBlock({
  message,
  error,
  detail,
}: {
  message?: string | null;
  error?: unknown;
  detail?: string | undefined;
}) {
  const { t } = useTranslation();
  const text = message || (error != null ? errorText(t, error) : null);
  if (!text) return null;
  if (detail)
    return (
      <div role="alert">
        <p className="error">{text}</p>
        <p className="muted">{detail}</p>
      </div>
    );
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}
