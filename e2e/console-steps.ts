/**
 * Steps of the console specs (issue 41): an organisation with an owner made through the admin API, and the owner
 * signed in to the real console with the e-mailed code. `base`: another server mailing to the same sink (a spec's
 * own, e2e/server.ts).
 */
import type { Locale } from '@tp/contract';
import { expect, type Page } from '@playwright/test';
import { mailCount, waitForCode } from './mail';
import { baseUrl } from './support';

/** Creates the organisation `slug` (name `name`) whose owner is `ownerEmail`; returns its API key. */
export async function createOrganisation(
  slug: string,
  ownerEmail: string,
  name = `Org ${slug}`,
  base = baseUrl(),
  adminKey = process.env.E2E_ADMIN_KEY!,
): Promise<string> {
  const r = await fetch(`${base}/v1/admin/organisations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ slug, name, ownerEmail, primaryColor: '#7c3aed' }),
  });
  expect(r.status, await r.clone().text()).toBe(201);
  return ((await r.json()) as { apiKey: string }).apiKey;
}

/** Signs `email` in to the console at `/console?lang=…` with the e-mailed code; waits for the first screen. */
export async function signInConsole(page: Page, email: string, lang: Locale = 'en', base = baseUrl()) {
  await page.goto(`${base}/console?lang=${lang}`);
  const before = mailCount();
  await page.getByLabel(lang === 'es' ? 'Correo electrónico' : 'E-mail').fill(email);
  await page.getByRole('button', { name: lang === 'es' ? 'Enviarme un código' : 'E-mail me a code' }).click();
  const code = await waitForCode(email, before);
  await page.getByLabel(lang === 'es' ? 'Código' : 'Code').fill(code);
  await page.getByRole('button', { name: lang === 'es' ? 'Iniciar sesión' : 'Sign in' }).click();
  await expect(page.getByRole('navigation')).toBeVisible();
}
