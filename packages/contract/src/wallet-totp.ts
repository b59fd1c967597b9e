/**
 * The TOTP of a Google Wallet rotating barcode (issue 22, decision 029): the phone shows
 * `<ticket code>.<totp_timestamp_seconds>.<totp_value_0>`, the TOTP (RFC 6238, HMAC-SHA1, 8 digits, 30 s period)
 * of the pass's own secret at that timestamp. A door that has the secret (online: the server; offline: the
 * admissions snapshot of its organisation) refuses a value that is not the secret's at its timestamp or whose
 * timestamp is more than {@link WALLET_TOTP_MAX_SKEW_SECONDS} from the door's clock (a screenshot goes stale).
 * Through `otplib` with its pure-JS crypto, so the same code runs in Node and in the browser scanner.
 */
import { generate } from 'otplib';

/** Seconds per TOTP value (Google's `totpDetails.periodMillis` / 1000). */
export const WALLET_TOTP_PERIOD_SECONDS = 30;
/** Digits of a value (Google's `parameters[0].valueLength`). */
export const WALLET_TOTP_DIGITS = 8;
/** Largest difference, in seconds, between a shown value's timestamp and the door's clock. */
export const WALLET_TOTP_MAX_SKEW_SECONDS = 90;

/** What the rotating barcode adds after the ticket code. */
export interface ShownTotp {
  /** `{totp_timestamp_seconds}`: unix seconds, UTC. */
  timestampSeconds: number;
  /** `{totp_value_0}`: the value, digits as shown. */
  value: string;
}

/** Bytes of a hex secret (Google's `totpDetails.parameters[0].key` is Base16). */
function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The value a pass with secret `secretHex` (hex, 20 bytes) shows at `epochSeconds`. */
export function walletTotp(secretHex: string, epochSeconds: number): Promise<string> {
  return generate({
    secret: hexBytes(secretHex),
    digits: WALLET_TOTP_DIGITS,
    period: WALLET_TOTP_PERIOD_SECONDS,
    algorithm: 'sha1',
    epoch: epochSeconds,
  });
}

/** True when `shown`'s timestamp is within {@link WALLET_TOTP_MAX_SKEW_SECONDS} of `nowSeconds` (no secret needed). */
export function walletTotpTimely(shown: ShownTotp, nowSeconds: number): boolean {
  return Math.abs(nowSeconds - shown.timestampSeconds) <= WALLET_TOTP_MAX_SKEW_SECONDS;
}

/**
 * True when `shown` is fresh: its timestamp within {@link WALLET_TOTP_MAX_SKEW_SECONDS} of `nowSeconds` and its
 * value the secret's at that timestamp.
 */
export async function walletTotpFresh(secretHex: string, shown: ShownTotp, nowSeconds: number): Promise<boolean> {
  if (!walletTotpTimely(shown, nowSeconds)) return false;
  return (await walletTotp(secretHex, shown.timestampSeconds)) === shown.value;
}

/**
 * A door's verdict on a rotating barcode's suffix at `nowSeconds` (the scan's time): true when its timestamp is
 * timely and, where the door has the pass's secret (`secretHex`), its value is the secret's. Without the secret
 * (an offline door's snapshot older than the pass) the timestamp alone is checked.
 */
export async function walletTotpAdmits(
  secretHex: string | undefined,
  shown: ShownTotp,
  nowSeconds: number,
): Promise<boolean> {
  return secretHex ? walletTotpFresh(secretHex, shown, nowSeconds) : walletTotpTimely(shown, nowSeconds);
}
