/** The console's catalogues hold the same keys, and its zoned times round-trip through the event's time zone. */
import { describe, expect, it } from 'vitest';
import en from './locales/console-en.json';
import es from './locales/console-es.json';
import { isoToZoned, zonedToIso } from './zoned-time';
import { chartSeries } from './chart-series';

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'object' && v ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );

describe('console', () => {
  it('has every text in English and Spanish', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it("reads a datetime-local value as the event's wall time, across a daylight-saving change", () => {
    // Sydney is UTC+11 in March (daylight saving) and UTC+10 in July.
    expect(zonedToIso('2027-03-01T18:00', 'Australia/Sydney')).toBe('2027-03-01T07:00:00.000Z');
    expect(zonedToIso('2027-07-01T18:00', 'Australia/Sydney')).toBe('2027-07-01T08:00:00.000Z');
    expect(zonedToIso('2027-03-01T18:00', 'Pacific/Auckland')).toBe('2027-03-01T05:00:00.000Z');
    expect(isoToZoned('2027-07-01T08:00:00.000Z', 'Australia/Sydney')).toBe('2027-07-01T18:00');
    expect(zonedToIso('', 'UTC')).toBeNull();
    expect(isoToZoned(null, 'UTC')).toBe('');
  });

  it('draws every 5-minute bucket of the event day, empty ones as zero', () => {
    const [xs, ys] = chartSeries({
      bucketSeconds: 300,
      from: '2027-03-01T01:00:00.000Z',
      to: '2027-03-01T01:30:00.000Z',
      buckets: [
        { at: '2027-03-01T01:05:00.000Z', count: 3 },
        { at: '2027-03-01T01:20:00.000Z', count: 1 },
      ],
      conflicts: [],
    });
    const start = Date.parse('2027-03-01T01:00:00.000Z') / 1000;
    expect(xs).toEqual([0, 1, 2, 3, 4, 5].map((i) => start + i * 300));
    expect(ys).toEqual([0, 3, 0, 0, 1, 0]);
  });
});
