/** Plural forms in the server's pages and mails (issue 13 point 3: "1 disponible", not "1 disponibles"). */
import type { Locale } from '@tp/contract';
import { describe, expect, it } from 'vitest';
import { formatEventDateTime, plural } from '../src/lib/lang.js';
import { resaleCodeMail, signInCodeMail } from '../src/providers/mail/templates.js';
import { productBrand, sampleTicket } from './mail-fixtures.js';

describe('plural (CLDR rules through Intl.PluralRules)', () => {
  const forms = { one: 'disponible', other: 'disponibles' };
  it('picks one for 1 and other for 0 and many, in both languages', () => {
    expect(plural('es', 1, forms)).toBe('disponible');
    expect(plural('es', 0, forms)).toBe('disponibles');
    expect(plural('es', 3, forms)).toBe('disponibles');
    expect(plural('en', 1, { one: 'ticket', other: 'tickets' })).toBe('ticket');
    expect(plural('en', 2, { one: 'ticket', other: 'tickets' })).toBe('tickets');
  });

  it('mails say "1 entrada" and "3 entradas", never "entrada(s)"', async () => {
    const bought = (lang: Locale, quantity: number) =>
      resaleCodeMail(lang, {
        ticket: sampleTicket('River Nights'),
        quantity,
        link: 'https://x.test/',
        brand: productBrand,
        at: new Date(),
      });
    expect((await bought('es', 1)).text).toContain('Has comprado 1 entrada de reventa');
    expect((await bought('es', 3)).text).toContain('Has comprado 3 entradas de reventa');
    expect((await bought('en', 1)).text).toContain('You bought 1 resale ticket for');
    expect((await signInCodeMail('es', '123456', 1, productBrand)).text).toContain('Caduca en 1 minuto.');
    expect((await signInCodeMail('en', '123456', 10, productBrand)).text).toContain('It expires in 10 minutes.');
  });

  it('event times in Spanish are on the 24-hour clock', () => {
    expect(formatEventDateTime('es', new Date('2026-11-28T08:00:00Z'), 'Australia/Sydney')).toContain('19:00');
  });
});
