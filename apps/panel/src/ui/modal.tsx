import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { postToHost } from '../lib/host-bridge';
import { useSheetEntry } from '../lib/sheet-entry';
import { CloseIcon } from './icons';

/**
 * A dialog: focus moves in and returns on close, Escape closes, the page behind does not scroll
 * (and the host page is asked to lock its scroll while embedded). Back closes it (issue 40 point 3): it has a
 * history entry of its own while open (`useSheetEntry`), unless `inUrl` (the HUB overlay: its route is its entry).
 */
export function Modal(props: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  fullScreen?: boolean;
  footer?: ReactNode;
  hideTitle?: boolean;
  /** The dialog is in the URL (PANEL_OVERLAY_TAB): no history entry of its own. */
  inUrl?: boolean;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const { onClose } = props;
  useSheetEntry(titleId, !props.inUrl, onClose);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    const prev = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    postToHost({ type: 'scroll-lock', locked: true });
    const onKey = (e: KeyboardEvent) => {
      // Only the topmost dialog closes, and only when no inner layer (an open menu or listbox, which
      // prevents the default) took the key; taking it, it tells the embed loader not to close the modal.
      const top = Array.from(document.querySelectorAll('[role="dialog"]')).pop();
      if (e.key !== 'Escape' || e.defaultPrevented || top !== ref.current) return;
      e.preventDefault();
      onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = prev;
      postToHost({ type: 'scroll-lock', locked: false });
      opener?.focus?.();
    };
  }, [onClose]);
  return createPortal(
    // The backdrop is decoration; a press on it closes the dialog like Escape does.
    <div
      className="modal-backdrop"
      role="presentation"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={ref}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={`modal ${props.fullScreen ? 'modal--full' : ''}`}
      >
        <div className="modal__head">
          <h2 id={titleId} className={props.hideTitle ? 'visually-hidden' : 'modal__title'}>
            {props.title}
          </h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label={t('common.close')}>
            <CloseIcon />
          </button>
        </div>
        <div className="modal__body">{props.children}</div>
        {props.footer && <div className="modal__foot">{props.footer}</div>}
      </div>
    </div>,
    document.body,
  );
}
