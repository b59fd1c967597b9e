/**
 * The one confirm of a console action that cannot be undone (remove a member, revoke a ticket): the question, what
 * the action takes (`children`: a field, optional), the action's error (`ErrorBlock`), and the danger button with
 * Cancel (`FormFooter`), as an alert dialog in a card.
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
  /** A field the action takes (an approval's reference, a decline's reason). */
  children?: ReactNode;
}) {
  return (
    <div className="card stack" role="alertdialog" aria-labelledby={id}>
      <p id={id}>{question}</p>
      {children}
      <ErrorBlock error={error} />
      <FormFooter danger submit={yes} pending={pending} onSubmit={onYes} onCancel={onCancel} />
    </div>
  );
}
