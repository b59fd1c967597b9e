/**
 * The door's admission rule (decisions 003 and 050) as pure functions: the server's check-in, its sync and the
 * offline door all apply them, so what they admit and how they sort a holder's tickets are tested here once.
 */
import { describe, expect, it } from 'vitest';
import { checkInAnswer, judgeHeldTickets, recordedIds, scansOf } from './admission.js';
import type { HeldTicket } from './access.js';

const USED = '2026-06-01T20:00:00.000Z';
const held: HeldTicket[] = [
  { userTicketId: 1, ticketName: 'GA', usedAt: null, listed: false },
  { userTicketId: 2, ticketName: 'GA', usedAt: USED, listed: false },
  { userTicketId: 3, ticketName: 'VIP', usedAt: null, listed: true },
  { userTicketId: 4, ticketName: 'VIP', usedAt: USED, listed: true },
];
const entry = { at: '2026-06-02T19:00:00.000Z', zone: null, direction: 'in' as const, timeZone: 'Europe/Madrid' };

describe('judgeHeldTickets', () => {
  it('admits only the unused tickets that are not listed for resale (rules of before issue 48)', () => {
    const verdicts = judgeHeldTickets(held, entry);
    expect(recordedIds(verdicts)).toEqual([1]);
    expect(recordedIds(judgeHeldTickets([], entry))).toEqual([]);
  });

  it('reads a ticket with no scans as entered once at usedAt', () => {
    expect(scansOf(held[1], 'Europe/Madrid')).toEqual([{ at: USED, direction: 'in', zone: null, day: '2026-06-01' }]);
    expect(scansOf(held[0], 'Europe/Madrid')).toEqual([]);
  });
});

describe('checkInAnswer', () => {
  it('sorts used tickets into alreadyUsed (listed or not), admitted ones into admitted, listed ones into listedForResale', () => {
    expect(checkInAnswer('Ana', held, judgeHeldTickets(held, entry))).toEqual({
      holderName: 'Ana',
      admitted: [{ userTicketId: 1, ticketName: 'GA' }],
      alreadyUsed: [
        { userTicketId: 2, ticketName: 'GA', usedAt: USED },
        { userTicketId: 4, ticketName: 'VIP', usedAt: USED },
      ],
      listedForResale: [{ userTicketId: 3, ticketName: 'VIP' }],
    });
  });

  it('answers exits in exited and the rules’ other refusals in refused, with the type’s days and zones', () => {
    const pass: HeldTicket[] = [
      { ...held[1], entryRules: { entries: 'reentry' }, scans: scansOf(held[1], 'UTC') },
      { ...held[0], entryRules: { entries: 'once', days: ['2026-06-03'], zones: ['VIP'] } },
    ];
    expect(checkInAnswer('Ana', pass, judgeHeldTickets(pass, { ...entry, direction: 'out' }))).toEqual({
      holderName: 'Ana',
      admitted: [],
      alreadyUsed: [],
      listedForResale: [],
      exited: [{ userTicketId: 2, ticketName: 'GA' }],
      refused: [{ userTicketId: 1, ticketName: 'GA', reason: 'not_inside', days: ['2026-06-03'], zones: ['VIP'] }],
    });
    expect(checkInAnswer('Ana', pass, judgeHeldTickets(pass, entry)).refused).toEqual([
      { userTicketId: 2, ticketName: 'GA', reason: 'already_inside' },
      { userTicketId: 1, ticketName: 'GA', reason: 'not_valid_today', days: ['2026-06-03'], zones: ['VIP'] },
    ]);
  });

  it('leaves out a ticket it has no verdict for: in no list', () => {
    expect(checkInAnswer('Ana', held.slice(0, 1), new Map())).toEqual({
      holderName: 'Ana',
      admitted: [],
      alreadyUsed: [],
      listedForResale: [],
    });
  });
});
