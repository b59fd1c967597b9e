import { describe, expect, it } from 'vitest';
import { instant } from './fields.js';
import { auditLogQuery } from './audit.js';
import { exchangeSettingsRequest } from './exchange.js';
import { eventUpsertRequest } from './organisations.js';
import { refundPolicyRequest } from './refunds.js';

describe('instant: ISO 8601 with an offset, in the years the database stores (issue 46 audit: year 0 was a 500)', () => {
  it.each([
    ['2027-03-01T18:00:00+11:00', true],
    ['0001-01-01T00:00:00Z', true],
    ['9999-12-31T23:59:59Z', true],
    // Year 0 (1 BC) and year 10000, written or reached through the offset: PostgreSQL refuses them as we send them.
    ['0000-01-01T00:00:00Z', false],
    ['0001-01-01T00:00:00+01:00', false],
    ['9999-12-31T23:59:59-01:00', false],
    ['2027-02-30T00:00:00Z', false],
    ['tomorrow', false],
  ])('%s: %s', (value, ok) => {
    expect(instant.safeParse(value).success).toBe(ok);
  });

  it('is the instant of the refund policy, the event, the exchange settings and the audit log filter', () => {
    const year0 = '0000-06-01T00:00:00Z';
    expect(refundPolicyRequest.safeParse({ mode: 'until', until: year0 }).success).toBe(false);
    expect(auditLogQuery.safeParse({ since: year0 }).success).toBe(false);
    expect(exchangeSettingsRequest.safeParse({ closesAt: year0 }).success).toBe(false);
    const event = { name: 'Gig', startsAt: year0, endsAt: '2027-01-01T00:00:00Z', timeZone: 'UTC' };
    expect(eventUpsertRequest.safeParse(event).error?.issues.map((i) => i.path.join('.'))).toContain('startsAt');
  });
});
