import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { initI18n, loadLaterTexts } from './i18n';

describe('the one translate path', () => {
  beforeAll(async () => {
    await initI18n('es');
    await loadLaterTexts();
  });
  afterEach(() => vi.restoreAllMocks());

  it('translates known keys, validation and server keys alike', () => {
    expect(i18next.t('validation.email_invalid')).toBe('El correo no es válido');
    expect(i18next.t('api.ticket.not_found')).not.toMatch(/^api\./);
  });

  it('shows the generic message for an unknown key and logs it in development', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(i18next.t('api.some.future_key')).toBe(i18next.t('request_failed'));
    expect(i18next.t('validation.not_in_catalogue')).toBe(i18next.t('request_failed'));
    expect(warn).toHaveBeenCalledWith('[i18n] missing message key: api.some.future_key');
  });

  it('keeps a default value the caller gave', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(i18next.t('nope.key', { defaultValue: 'Hola' })).toBe('Hola');
  });
});

describe('plurals (i18next plural rules, Intl.PluralRules)', () => {
  it('picks _one and _other in Spanish', async () => {
    await initI18n('es');
    await loadLaterTexts();
    expect(i18next.t('resell.available_count', { count: 1 })).toBe('1 disponible');
    expect(i18next.t('resell.available_count', { count: 3 })).toBe('3 disponibles');
    expect(i18next.t('resell.card_price', { count: 1, price: '€10.00' })).toBe('1 entrada × €10.00');
    expect(i18next.t('resell.card_price', { count: 2, price: '€10.00' })).toBe('2 entradas × €10.00');
    expect(i18next.t('qr.refreshes', { count: 1 })).toBe('El código se renueva cada segundo.');
    expect(i18next.t('qr.refreshes', { count: 30 })).toBe('El código se renueva cada 30 segundos.');
  });

  it('picks _one and _other in English', async () => {
    await initI18n('en');
    await loadLaterTexts();
    expect(i18next.t('resell.card_price', { count: 1, price: '$10.00' })).toBe('1 ticket × $10.00');
    expect(i18next.t('resell.card_price', { count: 4, price: '$10.00' })).toBe('4 tickets × $10.00');
  });
});
