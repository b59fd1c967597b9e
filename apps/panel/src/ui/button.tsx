import type { ComponentPropsWithRef } from 'react';

/** A button: primary (default), secondary, ghost or danger; `loading` disables it and shows a spinner. `ref` reaches the <button>. */
export function Button({
  variant = 'primary',
  loading,
  className,
  children,
  disabled,
  ...rest
}: ComponentPropsWithRef<'button'> & { variant?: 'primary' | 'secondary' | 'ghost' | 'danger'; loading?: boolean }) {
  return (
    <button
      type="button"
      {...rest}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={`btn btn--${variant} ${className ?? ''}`}
    >
      {loading && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
