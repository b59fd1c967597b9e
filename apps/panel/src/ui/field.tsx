import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';
import type { FieldValues, FormState } from 'react-hook-form';
import type { TFunction } from 'i18next';

/** A labelled input. Shows `error` only when given (callers pass it when touched and in error), else `helper`. */
export const Field = forwardRef<
  HTMLInputElement,
  InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; helper?: ReactNode; extra?: ReactNode }
>(function Field({ label, error, helper, extra, className, ...input }, ref) {
  const id = useId();
  const note = `${id}-note`;
  return (
    <div className={`field ${error ? 'field--error' : ''} ${className ?? ''}`}>
      <div className="field__label-row">
        <label htmlFor={id} className="field__label">
          {label}
        </label>
        {extra}
      </div>
      <input
        id={id}
        ref={ref}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error || helper ? note : undefined}
        {...input}
      />
      {error ? (
        <p id={note} className="field__error" role="alert">
          {error}
        </p>
      ) : helper ? (
        <p id={note} className="field__helper">
          {helper}
        </p>
      ) : null}
    </div>
  );
});

/**
 * The one rule of the panel's forms for a field's error (react-hook-form), the `error` a {@link Field} is given: the
 * translated message of field `name`'s error once the person has left the field (touched), else undefined (nothing
 * while they type a first time). The error's message is a catalogue key (the contract's schemas and the forms' rules
 * give keys); `fallback` is the key when it has none. Beside `Field` so that a screen loads it with the field, not as
 * a chunk and a request of its own (the LOGIN screen's bytes, e2e/bytes.spec.ts).
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
