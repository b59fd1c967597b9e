/**
 * A console dialog's focus and keys (the ticket drawer, the step-up sheet): focus moves into `ref` when it opens and
 * back to what opened it when it closes; Escape calls `onClose` (keep it stable: a new one re-runs the effect).
 */
import { useEffect, type RefObject } from 'react';

export function useDialog(ref: RefObject<HTMLElement | null>, onClose: () => void): void {
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener?.focus();
    };
  }, [ref, onClose]);
}
