import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogues, fill, langOf } from './i18n';

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
  });

  it('fills placeholders and picks the language from <html lang>', () => {
    expect(fill(catalogues.en.ticketsMany, { n: 3 })).toBe('3 tickets');
    expect(fill(catalogues.es.ticketsMany, { n: 3 })).toBe('3 entradas');
    expect(fill('{missing} stays', {})).toBe('{missing} stays');
    expect(langOf('es')).toBe('es');
    expect(langOf('en')).toBe('en');
    expect(langOf('fr')).toBe('en');
    expect(langOf(null)).toBe('en');
  });
});
