/**
 * The one error type of the API. `code` is a spec message key (see `@tp/contract` MESSAGE_STATUS);
 * the error handler (lib/http.ts) turns it into `{ message: code, ...extra }` with the mapped HTTP status.
 * `cause` (the standard `Error.cause`) is internal: never sent to the client, logged with the error when
 * the status is 500 or more.
 */
import { MESSAGE_STATUS, type MessageKey } from '@tp/contract';

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: MessageKey,
    /** Extra body fields the spec names (`sessionId`, `fields`). Sent to the client: never internals. */
    readonly extra: Record<string, unknown> = {},
    /** Extra response headers (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
    /** `cause`: what went wrong underneath (a driver error, a provider failure), for the log only. */
    options?: { cause?: unknown },
  ) {
    super(code, options);
    this.name = 'AppError';
    this.status = MESSAGE_STATUS[code];
  }
}
