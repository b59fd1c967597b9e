/**
 * A pass held in front of the camera is seen many times a second, and its code turns every QR time
 * step. The guard lets one holder's pass through once: the same holder again only after being out of
 * view for `quietMs`, so ADMITTED is not replaced by ALREADY USED while the phone is still held up.
 */
import { claimedUserId } from '@tp/contract/pass-code';

/** The holder a pass text claims (unverified, `@tp/contract/pass-code`), or the text itself when it is no pass. */
export const holderOf = (code: string) => String(claimedUserId(code) ?? code);

/** @param quietMs how long a holder must be out of view before a new check (3 s at the door). */
export function createRepeatGuard(quietMs = 3000) {
  let lastHolder = '';
  let lastSeen = -Infinity;
  return {
    /** True when `code`, seen at `nowMs`, should be checked. */
    shouldCheck(code: string, nowMs: number): boolean {
      const holder = holderOf(code);
      const again = holder === lastHolder && nowMs - lastSeen < quietMs;
      lastHolder = holder;
      lastSeen = nowMs;
      return !again;
    },
  };
}
