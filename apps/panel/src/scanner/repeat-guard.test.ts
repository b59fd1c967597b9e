import { describe, expect, it } from 'vitest';
import { encodeServerCode } from '@tp/contract/pass-code';
import { createRepeatGuard, holderOf } from './repeat-guard';

/** A pass text of `userId` at `step` (the guard never verifies, so any signature bytes do). */
const pass = (userId: number, step: number, sig = 1) => encodeServerCode(userId, step, new Uint8Array(64).fill(sig));

describe('the camera repeat guard', () => {
  it('checks a holder once while the pass stays in view, even as its code turns', () => {
    const guard = createRepeatGuard(3000);
    expect(holderOf(pass(42, 1000))).toBe('42');
    expect(guard.shouldCheck(pass(42, 1000), 0)).toBe(true);
    expect(guard.shouldCheck(pass(42, 1000), 200)).toBe(false);
    expect(guard.shouldCheck(pass(42, 1001, 2), 2800)).toBe(false);
    // Seen continuously: the quiet time counts from the last sighting.
    expect(guard.shouldCheck(pass(42, 1001, 2), 5000)).toBe(false);
  });

  it('checks the same holder again after being out of view, and another holder at once', () => {
    const guard = createRepeatGuard(3000);
    expect(guard.shouldCheck(pass(42, 1), 0)).toBe(true);
    expect(guard.shouldCheck(pass(43, 1), 100)).toBe(true);
    expect(guard.shouldCheck(pass(42, 1), 200)).toBe(true);
    expect(guard.shouldCheck(pass(42, 1), 3300)).toBe(true);
    expect(guard.shouldCheck('not a pass', 3400)).toBe(true);
  });
});
