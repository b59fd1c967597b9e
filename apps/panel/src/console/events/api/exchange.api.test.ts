/** The console's exchange settings body (issue 45): wall times read in the event's zone, what the order does not use left out. */
import { describe, expect, it } from 'vitest';
import { exchangeSettingsBody, type ExchangeFields } from './exchange.api';

const fields: ExchangeFields = {
  enabled: true,
  offerMinutes: '20',
  order: 'draw',
  drawAt: '2027-03-01T10:00',
  maxQuantity: '4',
  closesAt: '',
};

describe('exchange settings body', () => {
  it('sends a draw time as the instant of that wall time in the event zone, numbers as numbers, no empty close', () => {
    expect(exchangeSettingsBody(fields, 'Australia/Sydney')).toEqual({
      enabled: true,
      offerMinutes: 20,
      order: 'draw',
      maxQuantity: 4,
      drawAt: '2027-02-28T23:00:00.000Z',
    });
  });

  it('leaves a typed draw time out when the order is first come, and sends a close time', () => {
    expect(
      exchangeSettingsBody({ ...fields, order: 'first_come', closesAt: '2027-03-02T18:30' }, 'Europe/Madrid'),
    ).toEqual({
      enabled: true,
      offerMinutes: 20,
      order: 'first_come',
      maxQuantity: 4,
      closesAt: '2027-03-02T17:30:00.000Z',
    });
  });
});
