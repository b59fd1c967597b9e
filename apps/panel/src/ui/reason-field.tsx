import { useId } from 'react';

/**
 * A person's reason in their own words: a labelled text area of three rows, at most `maxLength` characters, with a
 * helper line below that describes it (the holder's reason for a refund request, the organiser's words to the holders
 * of a cancelled event). The text is the caller's state (`value`, `onChange` with the new text); `className` is the
 * text area's look in its app (the panel's `field__input`, the console's `textarea`).
 */
export function ReasonField(props: {
  label: string;
  helper: string;
  maxLength: number;
  value: string;
  onChange: (text: string) => void;
  className: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {props.label}
      </label>
      <textarea
        id={id}
        className={props.className}
        rows={3}
        maxLength={props.maxLength}
        value={props.value}
        aria-describedby={`${id}-help`}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <p id={`${id}-help`} className="field__helper">
        {props.helper}
      </p>
    </div>
  );
}
