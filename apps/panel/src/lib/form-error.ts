/**
 * The one rule of the panel's forms for showing a field's error (react-hook-form): only once the person has left
 * the field (touched), in their language; nothing while they are still typing a first time.
 */
import type { FieldValues, FormState } from 'react-hook-form';
import type { TFunction } from 'i18next';

/**
 * The translated message of field `name`'s error once it is touched, else undefined. The error's message is a
 * catalogue key (the contract's schemas and the forms' rules give keys); `fallback` is the key when it has none.
 */
export function touchedError<T extends FieldValues>(
  t: TFunction,
  formState: Pick<FormState<T>, 'errors' | 'touchedFields'>,
  name: keyof T & string,
  fallback?: string,
): string | undefined {
  const error = formState.errors[name];
  const touched = (formState.touchedFields as Partial<Record<string, boolean>>)[name];
  if (!error || !touched) return undefined;
  const key = typeof error.message === 'string' && error.message ? error.message : fallback;
  return key ? t(key) : undefined;
}
