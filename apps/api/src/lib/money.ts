/** Money helpers: amounts are stored in integer minor units (cents) with an ISO 4217 code. */

/** The display symbol of a currency in English (AUD -> "A$", NZD -> "NZ$"). */
export function currencySymbol(currencyCode: string): string {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency: currencyCode })
      .formatToParts(0)
      .find((p) => p.type === 'currency')?.value ?? currencyCode
  );
}

/** Cents to a decimal amount in major units (1234 -> 12.34). */
export const fromCents = (cents: number): number => cents / 100;

/** A decimal amount in major units to integer cents, rounded half away from zero (12.345 -> 1235). */
export const toCents = (amount: number): number => Math.sign(amount) * Math.round(Math.abs(amount) * 100 + 1e-9);
