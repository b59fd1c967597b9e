/**
 * The offline door's pass verifier: the contract's `verifyPassCode` (pass-code.ts, decision record
 * 010-offline-pass) with the server's public key from the admissions snapshot, no network. Server codes
 * device codes and wallet ticket codes (decision 029, naming their one ticket) verify; a device code's revoked sign-in cannot be known offline (the server
 * reports it on sync as `invalid_pass`). Signatures verify through WebCrypto where the browser has Ed25519,
 * else through noble (`browserEd25519`).
 */
import { browserEd25519, fromBase64Url, verifyPassCode } from '@tp/contract/pass-code';
import type { PassVerifier } from './offline-door';

export const passVerifier: PassVerifier = async (code, { publicKeys, ttlSeconds, skewSteps }, at) => {
  const keys = publicKeys.map(fromBase64Url).filter((k): k is Uint8Array => k?.length === 32);
  if (keys.length === 0) return null;
  const nowSeconds = Math.floor(at.getTime() / 1000);
  const pass = await verifyPassCode(code, {
    publicKey: keys,
    nowSeconds,
    ttlSeconds,
    skewSteps,
    ed25519: await browserEd25519(),
  });
  return pass
    ? {
        userId: pass.userId,
        ...(pass.userTicketId !== undefined && { userTicketId: pass.userTicketId }),
        ...(pass.totp && { totp: pass.totp }),
      }
    : null;
};
