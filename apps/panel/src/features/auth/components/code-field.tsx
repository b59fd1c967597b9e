import { forwardRef, type ComponentProps } from 'react';
import { OTP_LENGTH } from '@tp/contract/constants';
import { Field } from '../../../ui/field';

/**
 * The field of an e-mailed six-digit code (spec section 2, OTP; the step-up sheet, issue 47): digits only, the phone's
 * one-time-code autofill, at most OTP_LENGTH characters. Takes Field's props (label, error, extra, a form's register).
 */
export const CodeField = forwardRef<HTMLInputElement, ComponentProps<typeof Field>>(function CodeField(props, ref) {
  return (
    <Field
      ref={ref}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={OTP_LENGTH}
      pattern="[0-9]*"
      placeholder="000000"
      className="field--otp"
      {...props}
    />
  );
});
