/**
 * The offline door's pass verifier: the contract's `verifyPassCode` (pass-code.ts, decision record
 * 010-offline-pass) with the server's public key from the admissions snapshot, no network. Server codes
 * and device codes both verify; a device code's revoked sign-in cannot be known offline (the server
 * reports it on sync as `invalid_pass`).
 */
import { fromBase64Url, verifyPassCode } from '@tp/contract/pass-code';
import type { PassVerifier } from './offline-door';

export const passVerifier: PassVerifier = async (code, { publicKey, ttlSeconds }, at) => {
  const key = fromBase64Url(publicKey);
  if (!key || key.length !== 32) return null;
  const pass = await verifyPassCode(code, { publicKey: key, nowSeconds: Math.floor(at.getTime() / 1000), ttlSeconds });
  return pass?.userId ?? null;
};
