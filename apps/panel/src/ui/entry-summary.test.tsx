/**
 * Issue 48: what a pass with entry rules admits, as the holder reads it (ui/entry-summary.tsx): days as weekday and
 * date with those entered on marked, zones, and since when inside in the event's time zone, in both languages.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initI18n } from '../lib/i18n';
import { loadCatalogue } from '../lib/feature-catalogues';
import { EntrySummary } from './entry-summary';

const entry = {
  entries: 'reentry' as const,
  days: [
    { day: '2027-07-09', used: true },
    { day: '2027-07-10', used: false },
    { day: '2027-07-11', used: false },
  ],
  zones: ['VIP', 'Backstage'],
};
const show = async (lang: 'en' | 'es', e: Parameters<typeof EntrySummary>[0]['entry']) => {
  await initI18n(lang);
  await loadCatalogue('entry');
  render(<EntrySummary entry={e} timeZone="Europe/Madrid" />);
  const text = (id: string) => screen.queryByTestId(id)?.textContent;
  return { days: text('entry-days'), zones: text('entry-zones'), state: text('entry-state') };
};
afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('en');
});

describe('the days and zones of a pass', () => {
  it('marks the days entered on, lists the zones and says how often it admits', async () => {
    expect(await show('en', entry)).toEqual({
      days: 'Fri 9 ✓ used · Sat 10 · Sun 11',
      zones: 'Zones: VIP · Backstage',
      state: 'Re-entry allowed: scan out when you leave',
    });
  });

  it('says since when it is inside, in the event time zone, in Spanish too', async () => {
    // 12:02 UTC is 14:02 in Madrid (summer time).
    expect(await show('es', { ...entry, insideSince: '2027-07-09T12:02:00.000Z' })).toEqual({
      days: 'vie 9 ✓ usado · sáb 10 · dom 11',
      zones: 'Zonas: VIP · Backstage',
      state: 'Dentro desde las 14:02',
    });
  });

  it('leaves out the days and zones a type does not list', async () => {
    expect(await show('en', { entries: 'once_per_day' })).toEqual({
      days: undefined,
      zones: undefined,
      state: 'One entry a day',
    });
  });
});
