/**
 * What the result panel shows: a pure function from a scan's outcome to a {@link Verdict}
 * (colour, big word, detail, holder, lists, vibration). The page renders it (view.ts).
 */
import type { CheckInOutcome, CheckInResponse } from './door-api';
import type { Formats, Texts } from './i18n';

/** idle/busy: grey; ok: green; warn: amber (used, listed for resale, returned to the exchange); bad: red. */
export type Tone = 'idle' | 'busy' | 'ok' | 'warn' | 'bad';

export interface Verdict {
  tone: Tone;
  /** The big word: ADMITTED, ALREADY USED, INVALID… */
  title: string;
  detail?: string;
  /** "Holder: Alice Example". */
  holder?: string;
  /** Lists under the verdict, each with an optional heading. */
  lists: { heading?: string; items: string[] }[];
  /** navigator.vibrate pattern, milliseconds. */
  buzz?: number | number[];
  /** The title is a sentence (the sync summary): shown smaller than a one-word verdict. */
  sentence?: true;
}

/** navigator.vibrate pattern of each tone that buzzes, milliseconds. */
const BUZZ: Record<'ok' | 'warn' | 'bad', number | number[]> = { ok: 120, warn: [80, 60, 80], bad: [200, 80, 200] };

type Ticket = { ticketName: string };

/** "2 × General Admission", "VIP" for one. */
export function grouped(tickets: Ticket[]): string[] {
  const counts = new Map<string, number>();
  for (const t of tickets) counts.set(t.ticketName, (counts.get(t.ticketName) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${n} × ${name}` : name));
}

const count = (t: Texts, n: number) => t('tickets', { count: n });

/** A plain verdict with no lists (ready, checking, messages). */
export const message = (tone: Tone, title: string, detail?: string): Verdict => ({ tone, title, detail, lists: [] });

/** A red verdict that vibrates: nobody is admitted (invalid, stale, another event's, not revealed…). */
const alarm = (title: string, detail?: string): Verdict => ({ ...message('bad', title, detail), buzz: BUZZ.bad });

/**
 * The verdict of a server answer: admitted wins, then already used, then listed for resale, then returned to the
 * exchange queue, else no ticket.
 */
export function answerVerdict(answer: CheckInResponse, t: Texts, formats: Formats): Verdict {
  const { admitted, alreadyUsed, listedForResale, holderName, movedAway = [], returned = [] } = answer;
  // No name when the server gives none: a holder with no ticket of this event is never named (issue 40 point 7).
  const holder = holderName ? `${t('holder')}: ${holderName}` : undefined;
  const used = alreadyUsed.map((x) => `${x.ticketName} · ${t('usedAt', { time: formats.time(x.usedAt) })}`);
  const listed = [
    ...(listedForResale.length ? [{ heading: t('alsoListed'), items: grouped(listedForResale) }] : []),
    ...(returned.length ? [{ heading: t('alsoReturned'), items: grouped(returned) }] : []),
  ];
  const answered = (tone: keyof typeof BUZZ, title: string, detail: string, lists: Verdict['lists']): Verdict => ({
    tone,
    title,
    detail,
    holder,
    lists,
    buzz: BUZZ[tone],
  });
  if (admitted.length > 0) {
    return answered('ok', t('admitted'), count(t, admitted.length), [
      { items: grouped(admitted) },
      ...(alreadyUsed.length ? [{ heading: t('alsoUsed'), items: used }] : []),
      ...listed,
    ]);
  }
  if (alreadyUsed.length > 0) {
    return answered('warn', t('alreadyUsed'), count(t, alreadyUsed.length), [{ items: used }, ...listed]);
  }
  if (listedForResale.length > 0) {
    return answered('warn', t('listed'), t('listedDetail'), [
      { items: grouped(listedForResale) },
      ...(returned.length ? [{ heading: t('alsoReturned'), items: grouped(returned) }] : []),
    ]);
  }
  if (returned.length > 0) {
    return answered('warn', t('returned'), t('returnedDetail'), [{ items: grouped(returned) }]);
  }
  // Nothing held, but the event's tickets left this holder (issue 40 point 7): say they moved or were voided,
  // never who holds them now.
  // A ticket whose payment was refunded or is disputed (issue 46) reads as its own reason: `ticket_refunded`.
  const transferred = movedAway.filter((m) => m.reason === 'transferred');
  const revoked = movedAway.filter((m) => m.reason === 'revoked');
  const refunded = movedAway.filter((m) => m.reason === 'refunded');
  if (movedAway.length > 0) {
    const [title, detail] = transferred.length
      ? [t('transferred'), t('transferredDetail')]
      : revoked.length
        ? [t('voided'), t('voidedDetail')]
        : [t('ticket_refunded'), t('ticketRefundedDetail')];
    return answered('bad', title, detail, [
      ...(transferred.length ? [{ heading: t('transferredHeading'), items: grouped(transferred) }] : []),
      ...(revoked.length ? [{ heading: t('voidedHeading'), items: grouped(revoked) }] : []),
      ...(refunded.length ? [{ heading: t('refundedHeading'), items: grouped(refunded) }] : []),
    ]);
  }
  return answered('bad', t('noTicket'), t('noTicketDetail'), []);
}

/**
 * The door's card after a sync that sent check-ins: the server's final word ("3 check-ins synced, 1
 * refused"), green when none was refused, amber with the refused ones listed first otherwise.
 * @param summary check-ins recorded as they were (`synced`) and check-ins with a ticket refused (`refused`).
 * @param lines one line per refused ticket (holder · ticket · reason).
 */
export function syncVerdict(summary: { synced: number; refused: number }, lines: string[], t: Texts): Verdict {
  const { synced, refused: n } = summary;
  const title = [t('synced', { count: synced }), t('refused', { count: n })].join(', ');
  if (n === 0) return { tone: 'ok', title, lists: [], sentence: true };
  return {
    tone: 'warn',
    title,
    lists: [{ heading: t('refusedHeading'), items: lines }],
    buzz: BUZZ.warn,
    sentence: true,
  };
}

/** The verdict of any scan outcome but `unauthorized` (which sends the page back to the key step). */
export function checkInVerdict(
  outcome: Exclude<CheckInOutcome, { kind: 'unauthorized' }>,
  t: Texts,
  formats: Formats,
): Verdict {
  switch (outcome.kind) {
    case 'answered': {
      const verdict = answerVerdict(outcome.answer, t, formats);
      // Offline, or the server too busy to answer: say so under the verdict (admitted ones are queued to sync).
      return outcome.offline
        ? {
            ...verdict,
            detail: [verdict.detail, outcome.shed ? t('decidedBusy') : t('decidedOffline')].filter(Boolean).join(' · '),
          }
        : verdict;
    }
    case 'offline_unavailable':
      return alarm(t('offlineUnavailable'));
    case 'invalid':
      return alarm(t('invalid'), t('invalidDetail'));
    case 'stale':
      return alarm(t('invalid'), t('staleDetail'));
    case 'event_not_found':
      return message('bad', t('eventNotFound'));
    case 'not_for_this_event':
      return alarm(t('notForThisEvent'), t('notForThisEventDetail'));
    case 'not_revealed':
      return alarm(t('notRevealed'), t('notRevealedDetail'));
    case 'event_cancelled':
      return alarm(t('event_cancelled'), t('eventCancelledDetail'));
    case 'too_many':
      return message('bad', t('tooMany'));
    case 'network':
      return message('bad', t('network'));
    case 'busy':
      return message('bad', t('busy'));
    case 'failed':
      return message('bad', t('failed'));
  }
}
