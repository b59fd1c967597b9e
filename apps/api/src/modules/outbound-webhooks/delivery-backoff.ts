/**
 * Retry schedule of webhook deliveries (issue 12: "retried with exponential backoff for at least a day"):
 * after the n-th failed attempt the next one waits 60 s × 2^(n−1), capped at 4 h, times a jitter factor in
 * [0.8, 1.2) so many receivers failing together do not retry in step. With WEBHOOK_MAX_ATTEMPTS = 16 the
 * retries span 32.25 h nominal, at least 25.8 h with the shortest jitter.
 */

/** First retry delay, seconds. */
export const BACKOFF_BASE_SECONDS = 60;
/** Longest delay between two attempts, seconds. */
export const BACKOFF_CAP_SECONDS = 4 * 3600;

/**
 * Seconds to wait after the `failedAttempts`-th failed attempt (1-based).
 * @param random a number in [0, 1) (Math.random; tests inject it).
 */
export function backoffSeconds(failedAttempts: number, random: number): number {
  const nominal = Math.min(BACKOFF_BASE_SECONDS * 2 ** Math.max(0, failedAttempts - 1), BACKOFF_CAP_SECONDS);
  return Math.round(nominal * (0.8 + 0.4 * random));
}
