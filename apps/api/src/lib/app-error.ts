/**
 * The one error type of the API. `code` is a spec message key (see `@tp/contract` MESSAGE_STATUS);
 * the error handler turns it into `{ message: code, ...extra }` with the mapped HTTP status.
 */
import { MESSAGE_STATUS, type MessageKey } from '@tp/contract';

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: MessageKey,
    /** Extra body fields the spec names (`sessionId`, `fields`). */
    readonly extra: Record<string, unknown> = {},
    /** Extra response headers (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.status = MESSAGE_STATUS[code];
  }
}
