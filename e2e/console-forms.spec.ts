/**
 * Issue 41, point 2: every console form shows the API's field errors at their fields, in the console's language,
 * rather than only "Something went wrong". The new-event form with a bad id, an empty name, an end before the start
 * and a time zone nobody knows (refused before sending: its wall times cannot be read in it); the branding form's
 * colour; the members form's e-mail; the door key form's event ids. Screenshots (en/es, light/dark, 360 px and desktop) in
 * test-results/console-forms/.
 */
import { expect, test, type Page } from './fixtures';
import { createOrganisation, signInConsole } from './console-steps';
import { expectAccessible, settled, watchNetwork } from './support';

const tag = Date.now().toString(36);

/** `datetime-local` value of now + `hours` in UTC. */
const utcWall = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString().slice(0, 16);

const TEXTS = {
  en: {
    newEvent: 'New event',
    id: 'Your event id',
    name: 'Name',
    venue: 'Venue',
    city: 'City',
    zone: /^Time zone/,
    starts: "Starts (event's local time)",
    ends: "Ends (event's local time)",
    save: 'Save',
    summary: 'Some fields are not valid.',
    idError: 'Use 1 to 100 letters, digits, dots, underscores, colons or hyphens (no spaces).',
    nameError: 'Enter a name (not too long).',
    endsError: 'Enter a date and time after the start.',
    zoneError: 'Not a time zone: use a name such as Australia/Sydney or Pacific/Auckland.',
    branding: 'Branding',
    colour: 'Colour (#rrggbb)',
    colourError: 'Enter a colour as # and six hex digits, e.g. #7c3aed.',
    members: 'Members',
    email: 'E-mail',
    addMember: 'Add member',
    emailError: 'Not an e-mail address.',
    keys: 'Keys',
    doorName: 'Name (e.g. North gate)',
    doorEvents: 'Only these events (your event ids, comma-separated; empty: every event)',
    doorCreate: 'Create door key',
    doorEventsError: 'Your event ids, separated by commas: 1 to 100 letters, digits, . _ : or - each.',
  },
  es: {
    newEvent: 'Nuevo evento',
    id: 'Tu id del evento',
    name: 'Nombre',
    venue: 'Recinto',
    city: 'Ciudad',
    zone: /^Zona horaria/,
    starts: 'Empieza (hora local del evento)',
    ends: 'Termina (hora local del evento)',
    save: 'Guardar',
    summary: 'Algunos campos no son válidos.',
    idError: 'Usa de 1 a 100 letras, dígitos, puntos, guiones bajos, dos puntos o guiones (sin espacios).',
    nameError: 'Escribe un nombre (no demasiado largo).',
    endsError: 'Escribe una fecha y hora posterior al inicio.',
    zoneError: 'No es una zona horaria: usa un nombre como Australia/Sydney o Pacific/Auckland.',
    branding: 'Marca',
    colour: 'Color (#rrggbb)',
    colourError: 'Escribe un color como # y seis dígitos hexadecimales, p. ej. #7c3aed.',
    members: 'Miembros',
    email: 'Correo electrónico',
    addMember: 'Añadir miembro',
    emailError: 'No es una dirección de correo electrónico.',
    keys: 'Claves',
    doorName: 'Nombre (p. ej. Puerta norte)',
    doorEvents: 'Solo estos eventos (los ID de tus eventos, separados por comas; vacío: todos)',
    doorCreate: 'Crear clave de puerta',
    doorEventsError: 'Tus ids de evento, separados por comas: de 1 a 100 letras, dígitos, . _ : o - cada uno.',
  },
} as const;

/** Screenshots of the page in both themes at 360 px and 1280 px. */
async function shots(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    // The console follows the system's theme until one is chosen.
    await page.emulateMedia({ colorScheme: theme });
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `test-results/console-forms/${name}-${theme}-${width}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.beforeEach(({ context }) => watchNetwork(context));

for (const lang of ['en', 'es'] as const) {
  test(`the API's field errors show at their fields (${lang})`, async ({ page }) => {
    const x = TEXTS[lang];
    const email = `owner-forms-${lang}-${tag}@console.example`;
    await createOrganisation(`forms-${lang}-${tag}`, email);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInConsole(page, email, lang);

    // New event: a time zone the browser does not know is refused at its field before anything is sent.
    await page.getByRole('button', { name: x.newEvent }).click();
    await page.getByLabel(x.id).fill('bad id!');
    await page.getByLabel(x.name, { exact: true }).fill('   ');
    await page.getByLabel(x.venue).fill('Pier 2');
    await page.getByLabel(x.city).fill('Sydney');
    await page.getByLabel(x.zone).fill('Mars/Olympus_Mons');
    await page.getByLabel(x.starts).fill(utcWall(3));
    await page.getByLabel(x.ends).fill(utcWall(2));
    let puts = 0;
    page.on('request', (r) => void (r.method() === 'PUT' && r.url().includes('/v1/org/events/') && puts++));
    await page.getByRole('button', { name: x.save, exact: true }).click();
    await expect(page.getByLabel(x.zone)).toHaveAccessibleDescription(x.zoneError);
    expect(puts).toBe(0);

    // A known zone: the API answers 400 naming the id (the path is checked before the body); shown at its field.
    await page.getByLabel(x.zone).fill('UTC');
    const refusal = async () => {
      const answer = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/v1/org/events/'));
      await page.getByRole('button', { name: x.save, exact: true }).click();
      const body = (await (await answer).json()) as { message: string; fields: Record<string, string[]> };
      expect(body.message).toBe('api.invalid_request_body');
      return Object.keys(body.fields).sort();
    };
    expect(await refusal()).toEqual(['externalId']);
    await expect(page.getByLabel(x.id)).toHaveAccessibleDescription(x.idError);
    // A good id: now the name and the end, each at its field; the id's error is gone.
    await page.getByLabel(x.id).fill(`evt-${lang}`);
    expect(await refusal()).toEqual(['endsAt', 'name']);
    await expect(page.getByLabel(x.name, { exact: true })).toHaveAccessibleDescription(x.nameError);
    await expect(page.getByLabel(x.ends)).toHaveAccessibleDescription(x.endsError);
    await expect(page.getByLabel(x.id)).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel(x.zone)).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('form > p.error[role="alert"]')).toHaveText(x.summary);
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
    await expect(page.getByText('Algo salió mal')).toHaveCount(0);
    await settled(page);
    await expectAccessible(page, `event form errors ${lang}`);
    await shots(page, `event-${lang}`);

    // Corrected, the same form saves.
    await page.getByLabel(x.name, { exact: true }).fill('Harbour Nights');
    await page.getByLabel(x.ends).fill(utcWall(6));
    await page.getByRole('button', { name: x.save, exact: true }).click();
    await expect(page.getByRole('article').filter({ hasText: 'Harbour Nights' })).toBeVisible();

    // Branding: a colour that is not #rrggbb.
    await page.getByRole('navigation').getByRole('link', { name: x.branding }).click();
    await expect(page.getByLabel(x.colour)).toHaveValue('#7c3aed');
    await page.getByLabel(x.colour).fill('purple');
    await page.getByRole('button', { name: x.save, exact: true }).click();
    await expect(page.getByLabel(x.colour)).toHaveAccessibleDescription(x.colourError);

    // Members: an e-mail address the API refuses.
    await page.getByRole('navigation').getByRole('link', { name: x.members }).click();
    await page.getByLabel(x.email).fill('not-an-email');
    await page.getByRole('button', { name: x.addMember }).click();
    await expect(page.getByLabel(x.email)).toHaveAccessibleDescription(x.emailError);

    // Door keys: an event id with a space (the re-walk: only "Some fields are not valid.", no field marked).
    await page.getByRole('navigation').getByRole('link', { name: x.keys }).click();
    await page.getByLabel(x.doorName).fill('North gate');
    await page.getByLabel(x.doorEvents).fill('bad id');
    await page.getByRole('button', { name: x.doorCreate }).click();
    await expect(page.getByLabel(x.doorEvents)).toHaveAccessibleDescription(x.doorEventsError);
    await expect(page.getByLabel(x.doorEvents)).toHaveAttribute('aria-invalid', 'true');
  });
}
