/**
 * The console's texts (decision 024): its own en and es catalogues (a test checks both hold every key), picked by
 * `?lang=` or the browser's language; the organiser API's message keys are keys of these catalogues too.
 */
import i18next from 'i18next';
import { isLocale, type Locale } from '@tp/contract';
import { initReactI18next } from 'react-i18next';
import en from './locales/console-en.json';
import es from './locales/console-es.json';

/** The console's language: `?lang=es|en`, else the browser's first language that is Spanish, else English. */
export function consoleLang(): Locale {
  const asked = new URLSearchParams(location.search).get('lang');
  if (isLocale(asked)) return asked;
  return navigator.language.toLowerCase().startsWith('es') ? 'es' : 'en';
}

export async function initConsoleI18n(): Promise<void> {
  const lng = consoleLang();
  document.documentElement.lang = lng;
  await i18next.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    resources: { en: { translation: en }, es: { translation: es } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
}
