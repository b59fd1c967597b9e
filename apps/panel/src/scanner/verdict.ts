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
  /** The detail is the one line of why the entry rules refused (issue 48): shown bigger, read in under a second. */
  reason?: true;
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

type Refusal = NonNullable<CheckInResponse['refused']>[number];

/** The big word of each entry-rule refusal (issue 48), and its tone: red when it never admits here, amber else. */
const REFUSAL = {
  not_valid_today: ['notValidToday', 'bad'],
  wrong_zone: ['wrongZone', 'bad'],
  already_inside: ['alreadyInside', 'warn'],
  not_inside: ['notInside', 'warn'],
  // The server and the offline door answer it in `alreadyUsed`; named here for completeness of the contract's reasons.
  already_used: ['alreadyUsed', 'warn'],
} as const;

/**
 * The one line of why the entry rules refused a ticket (issue 48): "Not valid today (valid Sat 11–Sun 12)",
 * "Already inside — scan out first", "Not for this zone: VIP (valid for Backstage)", "Not inside — scan in first".
 * @param zone the door's zone (null: none).
 */
export function refusalLine(r: Refusal, t: Texts, formats: Formats, zone: string | null): string {
  switch (r.reason) {
    case 'not_valid_today':
      return r.days ? t('notValidTodayDays', { days: formats.days(r.days) }) : t('notValidTodayDetail');
    case 'wrong_zone':
      return [t('wrongZoneDetail', { zone: zone ?? '' }), r.zones && t('validFor', { zones: r.zones.join(', ') })]
        .filter(Boolean)
        .join(' ');
    case 'already_inside':
      return t('alreadyInsideDetail');
    case 'not_inside':
      return t('notInsideDetail');
    case 'already_used':
      return t('alreadyUsedDetail');
  }
}

/** A plain verdict with no lists (ready, checking, messages). */
export const message = (tone: Tone, title: string, detail?: string): Verdict => ({ tone, title, detail, lists: [] });

/** A red verdict that vibrates: nobody is admitted (invalid, stale, another event's, not revealed…). */
const alarm = (title: string, detail?: string): Verdict => ({ ...message('bad', title, detail), buzz: BUZZ.bad });

/**
 * The verdict of a server answer (or the offline door's, the same shape): admitted wins, then an exit recorded, then
 * already used, then refused by the entry rules (the first ticket's reason), then listed for resale, then returned
 * to the exchange queue, else no ticket. Tickets refused beside an entry or exit are listed with their reasons.
 * @param zone the door's zone (null: none), named when a ticket is not for it.
 */
export function answerVerdict(
  answer: CheckInResponse,
  t: Texts,
  formats: Formats,
  zone: string | null = null,
): Verdict {
  const { admitted, alreadyUsed, listedForResale, holderName, movedAway = [], returned = [] } = answer;
  const { exited = [], refused = [] } = answer;
  // No name when the server gives none: a holder with no ticket of this event is never named (issue 40 point 7).
  const holder = holderName ? `${t('holder')}: ${holderName}` : undefined;
  const used = alreadyUsed.map((x) => `${x.ticketName} · ${t('usedAt', { time: formats.time(x.usedAt) })}`);
  const reasons = refused.map((r) => `${r.ticketName} · ${refusalLine(r, t, formats, zone)}`);
  const onSale = [
    ...(listedForResale.length ? [{ heading: t('alsoListed'), items: grouped(listedForResale) }] : []),
    ...(returned.length ? [{ heading: t('alsoReturned'), items: grouped(returned) }] : []),
  ];
  const listed = [...(refused.length ? [{ heading: t('alsoRefused'), items: reasons }] : []), ...onSale];
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
  if (exited.length > 0) {
    return answered('ok', t('exitRecorded'), count(t, exited.length), [{ items: grouped(exited) }, ...listed]);
  }
  if (alreadyUsed.length > 0) {
    return answered('warn', t('alreadyUsed'), count(t, alreadyUsed.length), [{ items: used }, ...listed]);
  }
  const [first] = refused;
  if (first) {
    // One ticket: the big line says why; several: each with its own reason.
    const items = refused.length > 1 ? reasons : grouped(refused);
    const [title, tone] = REFUSAL[first.reason];
    return { ...answered(tone, t(title), refusalLine(first, t, formats, zone), [{ items }, ...onSale]), reason: true };
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

/**
 * The verdict of any scan outcome but `unauthorized` (which sends the page back to the key step).
 * @param zone the door's zone (null: none; `OfflineDoor.info()`).
 */
export function checkInVerdict(
  outcome: Exclude<CheckInOutcome, { kind: 'unauthorized' }>,
  t: Texts,
  formats: Formats,
  zone: string | null = null,
): Verdict {
  switch (outcome.kind) {
    case 'answered': {
      const verdict = answerVerdict(outcome.answer, t, formats, zone);
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
