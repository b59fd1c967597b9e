import type { ReactNode } from 'react';
import { Button } from './button';
import { Modal } from './modal';
import './confirm-modal.css';

/**
 * A question with two answers, the shape of the panel's confirmations ("Leave the queue?", "Sell to the queue?",
 * "Delist?"): `keepLabel` leaves things as they are and closes; `confirmLabel` runs `onConfirm` (the caller closes on
 * success and says what happened). While `pending`, the confirm button spins and "keep" is disabled.
 */
export function ConfirmModal(props: {
  title: string;
  keepLabel: string;
  confirmLabel: string;
  /** `danger` for what ends something (leave, decline, take back, delist); default `primary`. */
  confirmVariant?: 'primary' | 'danger';
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      title={props.title}
      onClose={props.onClose}
      footer={
        <div className="confirm-modal__answers">
          <Button variant="secondary" onClick={props.onClose} disabled={props.pending}>
            {props.keepLabel}
          </Button>
          <Button variant={props.confirmVariant ?? 'primary'} loading={props.pending} onClick={props.onConfirm}>
            {props.confirmLabel}
          </Button>
        </div>
      }
    >
      {props.children}
    </Modal>
  );
}
