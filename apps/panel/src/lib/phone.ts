/**
 * Phone numbers shown formatted (issue 13) with libphonenumber-js and its `min` metadata (~80 KiB raw),
 * loaded by dynamic import on the screens that show a phone only, never with the first screens.
 * Stored numbers are normalised (`normalizePhone`: digits with an optional leading +): one with a
 * country code shows in the international format ("+61 412 345 678"); one without a country code or
 * that the metadata does not recognise shows as stored.
 */
import { useEffect, useState } from 'react';

/** Turns a stored number into its display form. */
export type PhoneFormatter = (stored: string) => string;

let loading: Promise<PhoneFormatter> | undefined;

/** Loads libphonenumber-js/min once and resolves to the formatter. */
export function loadPhoneFormatter(): Promise<PhoneFormatter> {
  loading ??= import('libphonenumber-js/min').then(({ parsePhoneNumberFromString }) => (stored: string) => {
    const parsed = stored.startsWith('+') ? parsePhoneNumberFromString(stored) : undefined;
    return parsed?.isPossible() ? parsed.formatInternational() : stored;
  });
  return loading;
}

/** The display form of `stored`: as stored until the library has loaded (a frame), then formatted. */
export function useFormattedPhone(stored: string | null): string | null {
  const [format, setFormat] = useState<PhoneFormatter | null>(null);
  useEffect(() => {
    if (!stored || format) return;
    let live = true;
    void loadPhoneFormatter().then((f) => live && setFormat(() => f));
    return () => {
      live = false;
    };
  }, [stored, format]);
  return stored && format ? format(stored) : stored;
}
