/** Feature catalogues (lib/feature-catalogues.ts, decision 004): loaded on demand, per language, merged in. */
import { describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { initI18n, loadLaterTexts } from './i18n';
import { loadCatalogue } from './feature-catalogues';

describe('a feature catalogue (loadCatalogue)', () => {
  it("adds its texts for the active language only when asked, and the new language's on a change", async () => {
    await initI18n('en');
    await loadLaterTexts();
    expect(i18next.exists('api.refund.not_allowed')).toBe(false);
    await loadCatalogue('refund');
    expect(i18next.t('api.refund.not_allowed')).toBe("Refunds can't be requested for this event now.");
    // The other texts of the `api` group stay (the bundle is merged in, not put in place of it).
    expect(i18next.exists('api.ticket.not_found')).toBe(true);
    await i18next.changeLanguage('es');
    await vi.waitFor(() =>
      expect(i18next.t('api.refund.not_allowed')).toBe('Ahora no se puede pedir el reembolso de este evento.'),
    );
  });
});
