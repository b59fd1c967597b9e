/**
 * The one confirm of a console action that cannot be undone (remove a member, revoke a ticket): the question, the
 * action's error (`ErrorBlock`), and the danger button with Cancel (`FormFooter`), as an alert dialog in a card.
 */
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
}) {
  return (
    <div className="card stack" role="alertdialog" aria-labelledby={id}>
      <p id={id}>{question}</p>
      <ErrorBlock error={error} />
      <FormFooter danger submit={yes} pending={pending} onSubmit={onYes} onCancel={onCancel} />
    </div>
  );
}
