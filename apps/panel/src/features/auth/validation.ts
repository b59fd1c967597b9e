/**
 * Sign-in form rules of spec section 5. Messages are catalogue keys, shown only when a field is
 * touched and in error.
 */
import * as z from 'zod';
import { OTP_LENGTH } from '@tp/contract/constants';

export const emailSchema = z.object({
  email: z.string().trim().min(1, 'validation.email_required').pipe(z.email('validation.email_invalid')),
});
export const otpSchema = z.object({
  otp: z
    .string()
    .trim()
    .min(1, 'validation.otp_required')
    .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), 'validation.otp_length'),
});
export const personalDataSchema = z.object({
  givenName: z.string().trim().min(1, 'validation.first_name_required'),
  familyName: z.string().trim().min(1, 'validation.last_name_required'),
});
export type EmailForm = z.infer<typeof emailSchema>;
export type OtpForm = z.infer<typeof otpSchema>;
export type PersonalDataForm = z.infer<typeof personalDataSchema>;
