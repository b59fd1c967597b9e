/**
 * A console dialog (the ticket drawer, the step-up sheet): modal, named by its heading (`labelledBy`), over a backdrop;
 * focus moves into it when it opens and back to what opened it when it closes; Escape calls `onClose` (keep it stable:
 * a new one re-runs the effect). `kind`: a `drawer` at the side or a `sheet` in the middle (console.css).
 */
import { useEffect, useRef, type ReactNode } from 'react';

export function Dialog({
  kind,
  labelledBy,
  onClose,
  children,
}: {
  kind: 'drawer' | 'sheet';
  labelledBy: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener?.focus();
    };
  }, [onClose]);
  return (
    <div className={`${kind}-backdrop`}>
      <div
        className={`${kind} stack`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        tabIndex={-1}
        ref={ref}
      >
        {children}
      </div>
    </div>
  );
}
