import { describe, expect, it } from 'vitest';
import { checkInAnswer, judgeHeldTickets } from '@tp/contract/admission';
import type { HeldTicket } from '@tp/contract/access';
import { catalogues, formatsFor, textsFor } from './i18n';
import { answerVerdict, checkInVerdict, grouped } from './verdict';

const t = textsFor('en');
const formats = { ...formatsFor('en'), time: (iso: string) => `T(${iso})` };
const ticket = (userTicketId: number, ticketName: string) => ({ userTicketId, ticketName });
const none = { admitted: [], alreadyUsed: [], listedForResale: [] };

describe('scan verdicts', () => {
  it('groups repeated ticket names', () => {
    expect(grouped([ticket(1, 'GA'), ticket(2, 'VIP'), ticket(3, 'GA')])).toEqual(['2 × GA', 'VIP']);
  });

  it('admits in green, and still lists tickets used before and those listed for resale', () => {
    const v = answerVerdict(
      {
        holderName: 'Alice Example',
        admitted: [ticket(1, 'GA'), ticket(2, 'GA')],
        alreadyUsed: [{ ...ticket(3, 'VIP'), usedAt: '2026-11-23T10:00:00.000Z' }],
        listedForResale: [ticket(4, 'GA')],
      },
      t,
      formats,
    );
    expect(v).toMatchObject({ tone: 'ok', title: 'ADMITTED', detail: '2 tickets', holder: 'Holder: Alice Example' });
    expect(v.lists).toEqual([
      { items: ['2 × GA'] },
      { heading: t('alsoUsed'), items: ['VIP · used T(2026-11-23T10:00:00.000Z)'] },
      { heading: t('alsoListed'), items: ['GA'] },
    ]);
    expect(v.buzz).toBe(120);
  });

  it('says ALREADY USED in amber when nothing was admitted but something was used', () => {
    const v = answerVerdict(
      { ...none, holderName: 'Bo', alreadyUsed: [{ ...ticket(1, 'GA'), usedAt: '2026-11-23T10:00:00.000Z' }] },
      t,
      formats,
    );
    expect(v).toMatchObject({ tone: 'warn', title: 'ALREADY USED', detail: '1 ticket' });
  });

  it('says LISTED FOR RESALE when the only tickets are on sale, and NO TICKET when there are none', () => {
    expect(answerVerdict({ ...none, holderName: 'Bo', listedForResale: [ticket(1, 'GA')] }, t, formats)).toMatchObject({
      tone: 'warn',
      title: 'LISTED FOR RESALE',
      detail: t('listedDetail'),
    });
    expect(answerVerdict({ ...none, holderName: 'Bo' }, t, formats)).toMatchObject({
      tone: 'bad',
      title: 'NO TICKET',
      holder: 'Holder: Bo',
    });
  });

  it('says RETURNED TO THE EXCHANGE when the only tickets are in the exchange queue, and lists them beside an admission', () => {
    expect(answerVerdict({ ...none, holderName: 'Bo', returned: [ticket(1, 'GA')] }, t, formats)).toMatchObject({
      tone: 'warn',
      title: 'RETURNED TO THE EXCHANGE',
      detail: t('returnedDetail'),
      lists: [{ items: ['GA'] }],
    });
    const admitted = answerVerdict(
      { ...none, holderName: 'Bo', admitted: [ticket(2, 'GA')], returned: [ticket(1, 'GA')] },
      t,
      formats,
    );
    expect(admitted).toMatchObject({ tone: 'ok', title: 'ADMITTED' });
    expect(admitted.lists).toEqual([{ items: ['GA'] }, { heading: t('alsoReturned'), items: ['GA'] }]);
  });

  it('says a gifted, resold or voided pass moved away, and names nobody the server did not name (issue 40 point 7)', () => {
    const moved = answerVerdict(
      {
        ...none,
        holderName: 'Bo',
        movedAway: [
          { ...ticket(1, 'GA'), reason: 'transferred' },
          { ...ticket(2, 'VIP'), reason: 'revoked' },
        ],
      },
      t,
      formats,
    );
    expect(moved).toMatchObject({
      tone: 'bad',
      title: 'TICKET MOVED',
      detail: t('transferredDetail'),
      holder: 'Holder: Bo',
    });
    expect(moved.lists).toEqual([
      { heading: t('transferredHeading'), items: ['GA'] },
      { heading: t('voidedHeading'), items: ['VIP'] },
    ]);
    const voided = answerVerdict(
      { ...none, holderName: 'Bo', movedAway: [{ ...ticket(2, 'VIP'), reason: 'revoked' }] },
      textsFor('es'),
      formats,
    );
    expect(voided).toMatchObject({ title: 'ENTRADA ANULADA', detail: catalogues.es.voidedDetail });
    // Its payment refunded or disputed (issue 46): its own reason, `ticket_refunded`, in both languages.
    const refunded = answerVerdict(
      { ...none, holderName: 'Bo', movedAway: [{ ...ticket(3, 'GA'), reason: 'refunded' }] },
      textsFor('es'),
      formats,
    );
    expect(refunded).toMatchObject({ tone: 'bad', title: 'PAGO DEVUELTO', detail: catalogues.es.ticketRefundedDetail });
    expect(refunded.lists).toEqual([{ heading: catalogues.es.refundedHeading, items: ['GA'] }]);
    expect(
      answerVerdict({ ...none, holderName: 'Bo', movedAway: [{ ...ticket(3, 'GA'), reason: 'refunded' }] }, t, formats)
        .title,
    ).toBe('PAYMENT REFUNDED');
    const stranger = answerVerdict({ ...none, holderName: '' }, t, formats);
    expect(stranger).toMatchObject({ title: 'NO TICKET' });
    expect(stranger.holder).toBeUndefined();
  });

  it('turns every other outcome into a red message', () => {
    expect(checkInVerdict({ kind: 'invalid' }, t, formats)).toMatchObject({ tone: 'bad', title: 'INVALID' });
    expect(checkInVerdict({ kind: 'event_not_found' }, t, formats).title).toBe(t('eventNotFound'));
    expect(checkInVerdict({ kind: 'event_cancelled' }, t, formats)).toMatchObject({
      tone: 'bad',
      title: 'EVENT CANCELLED',
      detail: t('eventCancelledDetail'),
    });
    expect(checkInVerdict({ kind: 'too_many' }, t, formats).title).toBe(t('tooMany'));
    expect(checkInVerdict({ kind: 'network' }, t, formats).title).toBe(t('network'));
    expect(checkInVerdict({ kind: 'failed', status: 500 }, t, formats).title).toBe(t('failed'));
  });

  it('says the server is busy, and an admission decided on the device because it was names why (issue 44)', () => {
    expect(checkInVerdict({ kind: 'busy' }, t, formats)).toMatchObject({ tone: 'bad', title: t('busy') });
    const answer = { ...none, holderName: 'Bo', admitted: [ticket(1, 'GA')] };
    const shed = checkInVerdict({ kind: 'answered', answer, offline: true, shed: true }, t, formats);
    expect(shed).toMatchObject({ tone: 'ok', title: 'ADMITTED', detail: `1 ticket · ${t('decidedBusy')}` });
    const offline = checkInVerdict({ kind: 'answered', answer, offline: true }, t, formats);
    expect(offline.detail).toBe(`1 ticket · ${t('decidedOffline')}`);
  });

  it('speaks Spanish with the Spanish catalogue', () => {
    expect(
      answerVerdict({ ...none, holderName: 'Bo', admitted: [ticket(1, 'GA')] }, textsFor('es'), formats),
    ).toMatchObject({ title: 'ACCESO PERMITIDO', detail: '1 entrada', holder: 'Titular: Bo' });
  });
});

describe('entry rules (issue 48): the door says why in one line', () => {
  const festival = { days: ['2027-07-10', '2027-07-11'], entries: 'reentry' as const, zones: ['Backstage'] };
  const refused = (reason: 'not_valid_today' | 'wrong_zone' | 'already_inside' | 'not_inside') => ({
    ...none,
    holderName: 'Bo',
    refused: [{ ...ticket(1, 'Weekend'), reason, days: festival.days, zones: festival.zones }],
  });

  it('names each reason big, in one line, in both languages', () => {
    const es = textsFor('es');
    const fes = formatsFor('es');
    const cases = [
      ['not_valid_today', 'bad', 'NOT VALID TODAY', 'Not valid today (valid Sat 10–Sun 11)'],
      ['wrong_zone', 'bad', 'WRONG ZONE', 'Not for this zone: VIP (valid for Backstage)'],
      ['already_inside', 'warn', 'ALREADY INSIDE', 'Already inside — scan out first'],
      ['not_inside', 'warn', 'NOT INSIDE', 'Not inside — scan in first'],
    ] as const;
    for (const [reason, tone, title, detail] of cases)
      expect(answerVerdict(refused(reason), t, formats, 'VIP'), reason).toMatchObject({
        tone,
        title,
        detail,
        reason: true,
        holder: 'Holder: Bo',
        lists: [{ items: ['Weekend'] }],
      });
    expect(answerVerdict(refused('not_valid_today'), es, fes)).toMatchObject({
      title: 'NO VÁLIDA HOY',
      detail: 'No es válida hoy (válida sáb 10–dom 11)',
    });
    expect(answerVerdict(refused('wrong_zone'), es, fes, 'VIP').detail).toBe(
      'No es para esta zona: VIP (válida para Backstage)',
    );
    expect(answerVerdict(refused('already_inside'), es, fes).detail).toBe('Ya está dentro: primero escanea la salida');
    expect(answerVerdict(refused('not_inside'), es, fes)).toMatchObject({
      title: 'NO ESTÁ DENTRO',
      detail: 'No está dentro: primero escanea la entrada',
    });
  });

  it('records an exit in green, and lists refused tickets beside an entry or an exit with their reasons', () => {
    const exit = answerVerdict({ ...none, holderName: 'Bo', exited: [ticket(1, 'Weekend')] }, t, formats);
    expect(exit).toMatchObject({
      tone: 'ok',
      title: 'EXIT RECORDED',
      detail: '1 ticket',
      lists: [{ items: ['Weekend'] }],
    });
    expect(answerVerdict({ ...none, holderName: 'Bo', exited: [ticket(1, 'W')] }, textsFor('es'), formats).title).toBe(
      'SALIDA REGISTRADA',
    );
    const both = answerVerdict({ ...refused('wrong_zone'), admitted: [ticket(2, 'GA')] }, t, formats, 'VIP');
    expect(both).toMatchObject({ tone: 'ok', title: 'ADMITTED' });
    expect(both.lists).toEqual([
      { items: ['GA'] },
      { heading: 'Refused:', items: ['Weekend · Not for this zone: VIP (valid for Backstage)'] },
    ]);
    const two = refused('not_valid_today');
    two.refused.push({ ...ticket(2, 'VIP pass'), reason: 'already_inside', days: [], zones: [] });
    expect(answerVerdict(two, t, formats).lists[0].items).toEqual([
      'Weekend · Not valid today (valid Sat 10–Sun 11)',
      'VIP pass · Already inside — scan out first',
    ]);
  });

  it('reads the same online and offline: the offline door answers through the same contract code', () => {
    const held: HeldTicket[] = [
      { userTicketId: 1, ticketName: 'Weekend', usedAt: null, listed: false, entryRules: festival, scans: [] },
    ];
    // Friday in Madrid: not one of the pass's days.
    const scan = {
      at: '2027-07-09T18:00:00.000Z',
      zone: 'Backstage',
      direction: 'in' as const,
      timeZone: 'Europe/Madrid',
    };
    const answer = checkInAnswer('Bo', held, judgeHeldTickets(held, scan));
    const online = checkInVerdict({ kind: 'answered', answer }, t, formats, 'Backstage');
    const offline = checkInVerdict({ kind: 'answered', answer, offline: true }, t, formats, 'Backstage');
    expect(online).toMatchObject({ title: 'NOT VALID TODAY', detail: 'Not valid today (valid Sat 10–Sun 11)' });
    expect(offline).toEqual({ ...online, detail: `${online.detail} · ${t('decidedOffline')}` });
  });
});

describe('door times (issue 29: the event zone, Spanish conventions)', () => {
  it('writes check-in times in the picked event zone, "usada el … a las …" in Spanish', () => {
    const sydney = { timeZone: 'Australia/Sydney', now: new Date('2026-11-28T00:00:00Z') };
    const es = formatsFor('es', sydney);
    es.setTimeZone('Australia/Sydney');
    expect(textsFor('es')('usedAt', { time: es.time('2026-11-25T10:53:00.000Z') })).toBe(
      'usada el mié, 25 nov a las 21:53',
    );
    expect(es.date('2026-12-01T08:00:00.000Z', 'Australia/Sydney')).toBe('mar, 1 dic 19:00');
    const en = formatsFor('en', sydney);
    en.setTimeZone('Australia/Sydney');
    expect(en.time('2026-11-25T10:53:00.000Z')).toBe('Wed, 25 Nov, 9:53 PM');
    // At a door elsewhere the zone is named (issue 40).
    const away = formatsFor('en', { ...sydney, timeZone: 'Europe/London' });
    expect(away.date('2026-12-01T08:00:00.000Z', 'Australia/Sydney')).toBe('Tue, 01 Dec, 7:00 PM AEDT');
  });
});
