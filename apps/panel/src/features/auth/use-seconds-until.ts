import { useEffect, useState } from 'react';

const secondsUntil = (at: number) => Math.max(0, Math.ceil((at - Date.now()) / 1000));

/**
 * Whole seconds (rounded up) from now until `at` (epoch ms), 0 once it has passed; re-renders every
 * second while counting down (the OTP screen's "Resend code in N s", issue 13).
 */
export function useSecondsUntil(at: number): number {
  const [state, setState] = useState(() => ({ at, seconds: secondsUntil(at) }));
  // A new target: start from it at once (no frame showing the old count).
  const current = state.at === at ? state : { at, seconds: secondsUntil(at) };
  if (current !== state) setState(current);
  const counting = current.seconds > 0;
  useEffect(() => {
    if (!counting) return;
    const timer = setInterval(() => setState({ at, seconds: secondsUntil(at) }), 1000);
    return () => clearInterval(timer);
  }, [at, counting]);
  return current.seconds;
}
