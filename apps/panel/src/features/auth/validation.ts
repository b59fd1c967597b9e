/**
 * Sign-in form rules of spec section 5. Messages are catalogue keys, shown only when a field is
 * touched and in error.
 *
 * These three forms are the first screens a holder sees, so they carry no schema library: each is a
 * Standard Schema (https://standardschema.dev) of a few string rules, used through react-hook-form's
 * `standardSchemaResolver`. Zod (even zod/mini, whose core the later screens share with full zod)
 * would add ~14 KiB compressed to the sign-in path (issue 9: LOGIN ≤ 120 KiB).
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { OTP_LENGTH } from '@tp/contract/constants';

/** A field's rule: the catalogue key of its first problem, or null. Runs on the trimmed value. */
type Rule = (value: string) => string | null;

/** A Standard Schema over string fields: trims each, reports each field's first failing rule. */
function formSchema<K extends string>(rules: Record<K, Rule[]>): StandardSchemaV1<Record<K, string>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'tp',
      validate(input) {
        const record = (input ?? {}) as Partial<Record<K, unknown>>;
        const value = {} as Record<K, string>;
        const issues: StandardSchemaV1.Issue[] = [];
        for (const key of Object.keys(rules) as K[]) {
          const raw = record[key];
          value[key] = typeof raw === 'string' ? raw.trim() : '';
          const message = rules[key].map((rule) => rule(value[key])).find((m) => m !== null);
          if (message) issues.push({ message, path: [key] });
        }
        return issues.length ? { issues } : { value };
      },
    },
  };
}

const required =
  (key: string): Rule =>
  (v) =>
    v ? null : key;
const matches =
  (pattern: RegExp, key: string): Rule =>
  (v) =>
    pattern.test(v) ? null : key;

/** One @, no spaces, a dot in the domain: the shape zod's `z.email()` accepts for ordinary addresses. */
const EMAIL = /^(?!\.)(?!.*\.\.)[\w'+\-.]*[\w+-]@([a-z0-9][a-z0-9-]*\.)+[a-z]{2,}$/i;

export const emailSchema = formSchema({
  email: [required('validation.email_required'), matches(EMAIL, 'validation.email_invalid')],
});
export const otpSchema = formSchema({
  otp: [required('validation.otp_required'), matches(new RegExp(`^\\d{${OTP_LENGTH}}$`), 'validation.otp_length')],
});
export const personalDataSchema = formSchema({
  givenName: [required('validation.first_name_required')],
  familyName: [required('validation.last_name_required')],
});
export type EmailForm = StandardSchemaV1.InferOutput<typeof emailSchema>;
export type OtpForm = StandardSchemaV1.InferOutput<typeof otpSchema>;
export type PersonalDataForm = StandardSchemaV1.InferOutput<typeof personalDataSchema>;
