import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogues, langOf, textsFor } from './i18n';

describe('scanner texts', () => {
  it('has every key in English and Spanish, none empty', () => {
    expect(Object.keys(catalogues.es).sort()).toEqual(Object.keys(catalogues.en).sort());
    for (const texts of Object.values(catalogues)) for (const text of Object.values(texts)) expect(text).not.toBe('');
  });

  it('names only existing keys in index.html', () => {
    const html = readFileSync(join(import.meta.dirname, 'index.html'), 'utf8');
    const keys = [...html.matchAll(/data-i18n="([^"]+)"/g)].map((m) => m[1]);
    expect(keys.length).toBeGreaterThan(10);
    for (const key of keys) expect(Object.keys(catalogues.en)).toContain(key);
    for (const key of keys) expect(textsFor('es')(key as never)).not.toBe(key);
  });

  it('fills values and picks plural forms as the panel and the mails do (i18next), and the language from <html lang>', () => {
    const en = textsFor('en');
    const es = textsFor('es');
    expect([en('tickets', { count: 1 }), en('tickets', { count: 3 })]).toEqual(['1 ticket', '3 tickets']);
    expect(es('tickets', { count: 3 })).toBe('3 entradas');
    expect([0, 1, 2].map((count) => en('queued', { count }))).toEqual([
      'Nothing waiting to sync',
      '1 check-in waiting to sync',
      '2 check-ins waiting to sync',
    ]);
    expect(es('refused', { count: 0 })).toBe('ninguno rechazado');
    // Spanish CLDR `many` (a million and more) falls back to `other`.
    expect(es('synced', { count: 1_000_000 })).toBe('1000000 accesos sincronizados');
    expect(en('usedAt', { time: '<b>9 PM</b>' })).toBe('used <b>9 PM</b>');
    expect(langOf('es')).toBe('es');
    expect(langOf('en')).toBe('en');
    expect(langOf('fr')).toBe('en');
    expect(langOf(null)).toBe('en');
  });
});
