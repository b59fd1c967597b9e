/**
 * The one footer of a console form or confirm (issue 43): the submit button with its pending state and, when the
 * form can be left, Cancel (`console.cancel`). In a row (`.row`) of its own, or `bare` (the buttons alone, where
 * the form itself is the row or the button stands in a stack). `onSubmit` makes it a plain button (a confirm
 * outside a form); `danger` and `small` are the confirm's and the table row's looks; `disabled` holds the submit back
 * while something the form needs is missing (a release without a verified payout account).
 */
import { useTranslation } from 'react-i18next';
import { Button } from '../ui/button';

export function FormFooter({
  submit,
  pending,
  onSubmit,
  onCancel,
  danger = false,
  small = false,
  bare = false,
  disabled = false,
}: {
  /** The submit button's text. */
  submit: string;
  /** True while the form's request runs: the submit button shows it and takes no second press. */
  pending: boolean;
  onSubmit?: () => void;
  onCancel?: () => void;
  danger?: boolean;
  small?: boolean;
  bare?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const size = small ? 'btn--small' : undefined;
  const buttons = (
    <>
      <Button
        type={onSubmit ? 'button' : 'submit'}
        variant={danger ? 'danger' : 'primary'}
        className={size}
        loading={pending}
        disabled={disabled}
        onClick={onSubmit}
      >
        {submit}
      </Button>
      {onCancel && (
        <Button variant="ghost" className={size} onClick={onCancel}>
          {t('console.cancel')}
        </Button>
      )}
    </>
  );
  return bare ? buttons : <div className="row">{buttons}</div>;
}
