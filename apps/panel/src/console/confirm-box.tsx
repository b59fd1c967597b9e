/**
 * The one confirm of a console action that cannot be undone (remove a member, revoke a ticket, cancel an event, decide a
 * refund request): the question, what the action takes or tells before it runs (`children`: a field such as an
 * approval's reference, or the cancel's reason and counts), the action's error (`ErrorBlock`), and the button with
 * Cancel (`FormFooter`; danger unless `danger` is false, a step that changes nothing yet), as an alert dialog in a card.
 */
import type { ReactNode } from 'react';
import { FormFooter } from './form-footer';
import { ErrorBlock } from './server-errors';

export function ConfirmBox({
  id,
  question,
  yes,
  pending,
  error,
  onYes,
  onCancel,
  danger = true,
  children,
}: {
  /** The question's element id (the dialog's name). */
  id: string;
  question: string;
  yes: string;
  pending: boolean;
  /** The action's error (a mutation's `error`, null when none). */
  error: unknown;
  onYes: () => void;
  onCancel: () => void;
  danger?: boolean;
  /** What the action takes or tells (an approval's reference, a decline's reason, the cancel's counts). */
  children?: ReactNode;
}) {
  return (
    <div className="card stack" role="alertdialog" aria-labelledby={id}>
      <p id={id}>{question}</p>
      {children}
      <ErrorBlock error={error} />
      <FormFooter danger={danger} submit={yes} pending={pending} onSubmit={onYes} onCancel={onCancel} />
    </div>
  );
}
