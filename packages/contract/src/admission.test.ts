/**
 * The door's admission rule (decision 003) as a pure function: the server's check-in and the offline door both
 * apply it, so what it admits and how it sorts a holder's tickets are tested here once (issue 43: the mutants the
 * API tests let live, since the server's own `usedAt IS NULL` update hides a rule that admits used tickets).
 */
import { describe, expect, it } from 'vitest';
import { admissibleTicketIds, checkInAnswer } from './admission.js';
import type { HeldTicket } from './access.js';

const held: HeldTicket[] = [
  { userTicketId: 1, ticketName: 'GA', usedAt: null, listed: false },
  { userTicketId: 2, ticketName: 'GA', usedAt: '2026-06-01T20:00:00.000Z', listed: false },
  { userTicketId: 3, ticketName: 'VIP', usedAt: null, listed: true },
  { userTicketId: 4, ticketName: 'VIP', usedAt: '2026-06-01T20:00:00.000Z', listed: true },
];

describe('admissibleTicketIds', () => {
  it('admits only the unused tickets that are not listed for resale', () => {
    expect(admissibleTicketIds(held)).toEqual([1]);
    expect(admissibleTicketIds([])).toEqual([]);
  });
});

describe('checkInAnswer', () => {
  it('sorts used tickets into alreadyUsed (listed or not), marked ones into admitted, listed ones into listedForResale', () => {
    expect(checkInAnswer('Ana', held, new Set([1]))).toEqual({
      holderName: 'Ana',
      admitted: [{ userTicketId: 1, ticketName: 'GA' }],
      alreadyUsed: [
        { userTicketId: 2, ticketName: 'GA', usedAt: '2026-06-01T20:00:00.000Z' },
        { userTicketId: 4, ticketName: 'VIP', usedAt: '2026-06-01T20:00:00.000Z' },
      ],
      listedForResale: [{ userTicketId: 3, ticketName: 'VIP' }],
    });
  });

  it('leaves out an admissible ticket the door did not mark (another scan took it first): in no list', () => {
    expect(checkInAnswer('Ana', held.slice(0, 1), new Set())).toEqual({
      holderName: 'Ana',
      admitted: [],
      alreadyUsed: [],
      listedForResale: [],
    });
  });
});
