import { describe, expect, it } from 'vitest';
import { createRepeatGuard, holderOf } from './repeat-guard';

describe('the camera repeat guard', () => {
  it('checks a holder once while the pass stays in view, even as its code turns', () => {
    const guard = createRepeatGuard(3000);
    expect(holderOf('TP1.42.1000.mac')).toBe('TP1.42');
    expect(guard.shouldCheck('TP1.42.1000.aaa', 0)).toBe(true);
    expect(guard.shouldCheck('TP1.42.1000.aaa', 200)).toBe(false);
    expect(guard.shouldCheck('TP1.42.1001.bbb', 2800)).toBe(false);
    // Seen continuously: the quiet time counts from the last sighting.
    expect(guard.shouldCheck('TP1.42.1001.bbb', 5000)).toBe(false);
  });

  it('checks the same holder again after being out of view, and another holder at once', () => {
    const guard = createRepeatGuard(3000);
    expect(guard.shouldCheck('TP1.42.1.a', 0)).toBe(true);
    expect(guard.shouldCheck('TP1.43.1.a', 100)).toBe(true);
    expect(guard.shouldCheck('TP1.42.1.a', 200)).toBe(true);
    expect(guard.shouldCheck('TP1.42.1.a', 3300)).toBe(true);
  });
});
