import type { ButtonHTMLAttributes } from 'react';

/** A button: primary (default), secondary, ghost or danger; `loading` disables it and shows a spinner. */
export function Button({ variant = 'primary', loading, className, children, disabled, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'secondary' | 'ghost' | 'danger'; loading?: boolean }) {
  return (
    <button type="button" {...rest} disabled={disabled || loading} aria-busy={loading || undefined} className={`btn btn--${variant} ${className ?? ''}`}>
      {loading && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
