/** An error as the console shows it: the catalogue's text of the API's message key, else its English `detail`. */
import type { TFunction } from 'i18next';
import { ApiError } from './api';

export function errorText(t: TFunction, err: unknown): string {
  if (err instanceof ApiError) {
    const key = err.body.message;
    return t(key, { defaultValue: err.body.detail ?? t('console.error_generic') });
  }
  return t('console.error_generic');
}
