/** The entry rules engine (issue 48, decision 050): each rule and refusal, day boundaries in the event's time zone. */
import { describe, expect, it } from 'vitest';
import { entryView, eventLocalDay, isInside, judgeEntry, type RecordedScan } from './entry-rules.js';

const scan = (at: string, direction: 'in' | 'out' = 'in', zone: string | null = null) => ({
  at,
  direction,
  zone,
  timeZone: 'Europe/Madrid',
});
const run = (rules: Parameters<typeof judgeEntry>[0], scans: ReturnType<typeof scan>[]) => {
  const history: RecordedScan[] = [];
  return scans.map((s) => {
    const v = judgeEntry(rules, history, s);
    if (v.ok) history.push(v.record);
    return v.ok ? 'ok' : v.reason;
  });
};

describe('eventLocalDay', () => {
  it('is the calendar date in the event’s time zone, from local midnight', () => {
    expect(eventLocalDay('2027-07-09T21:59:59Z', 'Europe/Madrid')).toBe('2027-07-09');
    expect(eventLocalDay('2027-07-09T22:00:00Z', 'Europe/Madrid')).toBe('2027-07-10');
    expect(eventLocalDay('2027-07-09T22:00:00Z', 'America/New_York')).toBe('2027-07-09');
    expect(eventLocalDay(new Date('2027-01-01T00:30:00Z'), 'Pacific/Kiritimati')).toBe('2027-01-01');
  });
});

describe('judgeEntry', () => {
  it('once (the default): one entry per zone, exits never consume one', () => {
    expect(run(null, [scan('2027-07-09T18:00:00Z'), scan('2027-07-09T19:00:00Z')])).toEqual(['ok', 'already_used']);
    expect(
      run({ entries: 'once' }, [
        scan('2027-07-09T18:00:00Z', 'out'),
        scan('2027-07-09T18:01:00Z'),
        scan('2027-07-09T18:02:00Z', 'out'),
        scan('2027-07-09T18:03:00Z'),
        scan('2027-07-09T18:04:00Z', 'in', 'VIP'),
      ]),
    ).toEqual(['not_inside', 'ok', 'ok', 'already_used', 'ok']);
  });

  it('once_per_day: again on the next event-local day (01:00 after a Friday show is Saturday)', () => {
    expect(
      run({ entries: 'once_per_day' }, [
        scan('2027-07-09T18:00:00Z'),
        scan('2027-07-09T21:30:00Z'),
        scan('2027-07-09T23:00:00Z'),
      ]),
    ).toEqual(['ok', 'already_used', 'ok']);
  });

  it('reentry: not while inside that zone; in and out again', () => {
    expect(
      run({ entries: 'reentry' }, [
        scan('2027-07-09T18:00:00Z'),
        scan('2027-07-09T18:05:00Z'),
        scan('2027-07-09T18:10:00Z', 'out'),
        scan('2027-07-09T18:11:00Z', 'out'),
        scan('2027-07-09T18:20:00Z'),
      ]),
    ).toEqual(['ok', 'already_inside', 'ok', 'not_inside', 'ok']);
  });

  it('days and zones refuse entries, never exits', () => {
    const rules = { entries: 'reentry' as const, days: ['2027-07-10'], zones: ['VIP'] };
    expect(
      run(rules, [
        scan('2027-07-09T18:00:00Z', 'in', 'VIP'),
        scan('2027-07-10T18:00:00Z', 'in', 'Backstage'),
        scan('2027-07-10T18:00:00Z', 'in', 'VIP'),
        scan('2027-07-10T22:30:00Z', 'out', 'VIP'),
        scan('2027-07-10T22:31:00Z', 'in', null),
      ]),
    ).toEqual(['not_valid_today', 'wrong_zone', 'ok', 'ok', 'not_valid_today']);
  });

  it('inside is the latest scan at the zone, whatever the history’s order', () => {
    const history: RecordedScan[] = [
      { at: '2027-07-09T19:00:00Z', direction: 'out', zone: null, day: '2027-07-09' },
      { at: '2027-07-09T18:00:00Z', direction: 'in', zone: null, day: '2027-07-09' },
      { at: '2027-07-09T18:30:00Z', direction: 'in', zone: 'VIP', day: '2027-07-09' },
    ];
    expect(isInside(history, null)).toBe(false);
    expect(isInside(history, 'VIP')).toBe(true);
    expect(isInside(history, 'Backstage')).toBe(false);
  });
});

describe('entryView (what the holder reads, issue 48)', () => {
  const at = (day: string, time: string) => `${day}T${time}:00.000Z`;
  const s = (day: string, time: string, direction: 'in' | 'out', zone: string | null = null): RecordedScan => ({
    at: at(day, time),
    direction,
    zone,
    day,
  });
  const rules = { days: ['2027-07-09', '2027-07-10'], entries: 'reentry' as const, zones: ['VIP'] };

  it('marks the days entered on, and since when inside: the earliest current stay of the zones it is inside', () => {
    const history = [s('2027-07-09', '12:00', 'in'), s('2027-07-09', '13:00', 'in', 'VIP')];
    expect(entryView(rules, history)).toEqual({
      entries: 'reentry',
      days: [
        { day: '2027-07-09', used: true },
        { day: '2027-07-10', used: false },
      ],
      zones: ['VIP'],
      insideSince: at('2027-07-09', '12:00'),
    });
    // Out of the grounds, still in VIP: inside since the VIP entry; out of both: not inside.
    const out = [...history, s('2027-07-09', '14:00', 'out')];
    expect(entryView(rules, out).insideSince).toBe(at('2027-07-09', '13:00'));
    expect(entryView(rules, [...out, s('2027-07-09', '15:00', 'out', 'VIP')])).not.toHaveProperty('insideSince');
  });

  it('says nothing of inside for a type without re-entry, and leaves out days and zones it does not list', () => {
    expect(entryView({ entries: 'once' }, [s('2027-07-09', '12:00', 'in')])).toEqual({ entries: 'once' });
  });
});
