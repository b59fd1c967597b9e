import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';

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
