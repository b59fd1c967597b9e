/**
 * Issue 48: what a pass with entry rules admits, as the holder reads it (ui/entry-summary.tsx, from the listing's
 * `entryRules` and `scans`): days as weekday and date with those entered on marked, zones, and since when inside in
 * the event's time zone, in both languages; a ticket used before scans were recorded reads as one entry then.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import type { RecordedScan } from '@tp/contract/entry-rules';
import { initI18n } from '../lib/i18n';
import { loadCatalogue } from '../lib/feature-catalogues';
import { EntrySummary, type RuledTicket } from './entry-summary';

const rules = {
  days: ['2027-07-09', '2027-07-10', '2027-07-11'],
  entries: 'reentry' as const,
  zones: ['VIP', 'Backstage'],
};
const scan = (at: string, direction: 'in' | 'out', zone: string | null = null): RecordedScan => ({
  at,
  direction,
  zone,
  day: at.slice(0, 10),
});
// Friday 9 July in Madrid: in at 10:00 UTC (12:00 there), out at 11:00 UTC.
const ticket = (over: Partial<RuledTicket> = {}): RuledTicket => ({
  entryRules: rules,
  scans: [scan('2027-07-09T10:00:00.000Z', 'in'), scan('2027-07-09T11:00:00.000Z', 'out')],
  eventAccessUsedOn: '2027-07-09T10:00:00.000Z',
  eventTimeZone: 'Europe/Madrid',
  ...over,
});
const show = async (lang: 'en' | 'es', tk: RuledTicket) => {
  await initI18n(lang);
  await loadCatalogue('entry');
  render(<EntrySummary ticket={tk} />);
  const text = (id: string) => screen.queryByTestId(id)?.textContent;
  return { days: text('entry-days'), zones: text('entry-zones'), state: text('entry-state') };
};
afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('en');
});

describe('the days and zones of a pass', () => {
  it('marks the days entered on, lists the zones and says how often it admits while outside', async () => {
    expect(await show('en', ticket())).toEqual({
      days: 'Fri 9 ✓ used · Sat 10 · Sun 11',
      zones: 'Zones: VIP · Backstage',
      state: 'Re-entry allowed: scan out when you leave',
    });
  });

  it('says since when it is inside, in the event time zone, in Spanish too', async () => {
    const back = ticket({ scans: [...ticket().scans!, scan('2027-07-09T12:02:00.000Z', 'in', 'VIP')] });
    // 12:02 UTC is 14:02 in Madrid (summer time).
    expect(await show('es', back)).toEqual({
      days: 'vie 9 ✓ usado · sáb 10 · dom 11',
      zones: 'Zonas: VIP · Backstage',
      state: 'Dentro desde: 14:02',
    });
  });

  it('reads a ticket used before scans were recorded as one entry at its first use', async () => {
    expect((await show('en', ticket({ scans: [] }))).state).toBe('Inside since 12:00 PM');
  });

  it('leaves out the days and zones a type does not list', async () => {
    expect(
      await show('en', ticket({ entryRules: { entries: 'once_per_day' }, scans: [], eventAccessUsedOn: null })),
    ).toEqual({
      days: undefined,
      zones: undefined,
      state: 'One entry a day',
    });
  });
});
