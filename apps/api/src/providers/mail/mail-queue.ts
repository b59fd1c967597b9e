/**
 * An in-process queue of mails that follow committed work and must not hold up the request that did it (issue 12:
 * a 1,000-row ticket import answers without waiting for 1,000 mails). Mails go out one at a time, in order, each
 * through `sendMailOrLog` (retries with backoff, failures logged, never thrown). Not durable: mails still queued
 * when the process dies are lost (logged at close if any remain).
 */
import { sendMailOrLog, type MailFailureLog, type MailMessage, type MailProvider } from './mail.provider.js';

export interface MailQueue {
  /** Queues mails (with the context logged if one fails); returns at once. */
  push(items: QueuedMail[]): void;
  /**
   * Queues mails that are still to be built (issue 23: 10,000 rendered mails take seconds, which the request that
   * caused them must not wait for): `build` runs in the queue's turn, its mails are sent after it. A failed build
   * is logged with `context`, never thrown.
   */
  pushBuilt(build: () => Promise<QueuedMail[]>, context: Record<string, unknown>): void;
  /** Resolves once every mail queued so far (and every mail their builds queued) was sent or given up on. */
  idle(): Promise<void>;
  /** Waits for the queue to drain, at most `timeoutMs`; logs how many were left. */
  close(timeoutMs: number): Promise<void>;
}

/** A mail for the queue, with what to log if it fails. */
export interface QueuedMail {
  message: MailMessage;
  context: Record<string, unknown>;
}

export function createMailQueue(deps: {
  mail: MailProvider;
  log: MailFailureLog;
  /** Tries per mail (default 3) and the first backoff (default 500 ms, doubling). */
  attempts?: number;
  backoffMs?: number;
}): MailQueue {
  let tail: Promise<void> = Promise.resolve();
  let pending = 0;
  const queue: MailQueue = {
    pushBuilt(build, context) {
      pending++;
      tail = tail.then(async () => {
        try {
          queue.push(await build());
        } catch (err) {
          deps.log.error({ ...context, err }, 'mails not built');
        }
        pending--;
      });
    },
    push(items) {
      for (const item of items) {
        pending++;
        tail = tail.then(async () => {
          await sendMailOrLog(deps.mail, item.message, {
            log: deps.log,
            context: item.context,
            attempts: deps.attempts ?? 3,
            backoffMs: deps.backoffMs ?? 500,
          });
          pending--;
        });
      }
    },
    async idle() {
      // A build queues its mails behind itself: wait until no new work was chained meanwhile.
      let seen: Promise<void>;
      do {
        seen = tail;
        await seen;
      } while (seen !== tail);
    },
    async close(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([tail, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      if (pending > 0) deps.log.error({ pending }, 'mails not sent at shutdown');
    },
  };
  return queue;
}
