/**
 * The invitation of a new console member goes in the language of the console that added them (issue 41, re-walk
 * of point 6): `?lang=` (the console sends its own), else Accept-Language, else English; the new account keeps it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
let key: string;
beforeEach(async () => {
  t = await createTestApp({ config: { adminKey: ADMIN } });
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { name: 'Aotearoa Sound', slug: 'aotearoa' },
  });
  expect(created.statusCode, created.body).toBe(201);
  key = created.json<{ apiKey: string }>().apiKey;
});
afterEach(() => t.close());

async function invite(email: string, query = '', headers: Record<string, string> = {}) {
  const r = await t.app.inject({
    method: 'POST',
    url: `/v1/org/members${query}`,
    headers: { ...bearer(key), ...headers },
    payload: { email, role: 'staff' },
  });
  expect(r.statusCode, r.body).toBe(201);
  await t.app.services.jobs.runDue();
  const mails = t.mail.sent.filter((m) => m.to === email);
  expect(mails).toHaveLength(1);
  return mails[0];
}

describe('the invitation of a new console member', () => {
  it("is in the Spanish console's language (?lang=es), and the new account is Spanish", async () => {
    const mail = await invite('kiri@example.com', '?lang=es', { 'accept-language': 'en-NZ,en;q=0.9' });
    expect(mail.subject).toBe('Te han añadido a Aotearoa Sound en la consola de organizadores');
    const { rows } = await rawQuery<{ locale: string }>(
      t.database.db,
      `select locale from users where email = 'kiri@example.com'`,
    );
    expect(rows[0].locale).toBe('es');
  });

  it('follows Accept-Language without ?lang=, and is English without either', async () => {
    expect((await invite('rua@example.com', '', { 'accept-language': 'es-ES,es;q=0.9' })).subject).toBe(
      'Te han añadido a Aotearoa Sound en la consola de organizadores',
    );
    expect((await invite('ana@example.com')).subject).toBe('You were added to Aotearoa Sound in the organiser console');
  });
});
