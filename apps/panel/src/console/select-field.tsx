/**
 * A labelled select of a console form or filter (issue 43: written once): its label, the select, and under it the
 * field's error (`FieldError`, id `<id>-error`, which the select names in `aria-describedby`). `ref` reaches the
 * <select>, so react-hook-form's `register` spreads onto it.
 */
import { forwardRef, type ReactNode, type SelectHTMLAttributes } from 'react';
import { FieldError } from './server-errors';

export const SelectField = forwardRef<
  HTMLSelectElement,
  SelectHTMLAttributes<HTMLSelectElement> & { id: string; label: string; error?: string; children: ReactNode }
>(function SelectField({ id, label, error, children, ...select }, ref) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        ref={ref}
        className="select"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...select}
      >
        {children}
      </select>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
});
