import { describe, expect, it } from 'vitest';
import { walletTotp, walletTotpFresh, WALLET_TOTP_MAX_SKEW_SECONDS } from './wallet-totp';

// RFC 6238 appendix B (SHA-1, 8 digits, 30 s): the secret is the ASCII "12345678901234567890".
const SECRET = Array.from(new TextEncoder().encode('12345678901234567890'), (b) =>
  b.toString(16).padStart(2, '0'),
).join('');

describe('wallet TOTP (Google rotating barcode)', () => {
  it("gives RFC 6238's SHA-1 test values", async () => {
    expect(await walletTotp(SECRET, 59)).toBe('94287082');
    expect(await walletTotp(SECRET, 1111111109)).toBe('07081804');
    expect(await walletTotp(SECRET, 1234567890)).toBe('89005924');
  });
  it('is fresh only with the right value at a timestamp near the door clock', async () => {
    const at = 1_800_000_000;
    const value = await walletTotp(SECRET, at);
    expect(await walletTotpFresh(SECRET, { timestampSeconds: at, value }, at + 5)).toBe(true);
    expect(await walletTotpFresh(SECRET, { timestampSeconds: at, value }, at + WALLET_TOTP_MAX_SKEW_SECONDS + 1)).toBe(
      false,
    );
    const wrong = value === '00000000' ? '00000001' : '00000000';
    expect(await walletTotpFresh(SECRET, { timestampSeconds: at, value: wrong }, at)).toBe(false);
    expect(await walletTotpFresh('ab'.repeat(20), { timestampSeconds: at, value }, at)).toBe(false);
  });
});
