/**
 * POST /v1/auth/profile (spec section 7), the one way the panel saves profile fields (personal data after
 * sign-in, and the account tab): the body is the stored user (the USER cache entry, GET /auth/me) minus
 * the access token, merged with the change. The server ignores the read-only fields and takes
 * givenName, familyName, nickname, phoneNumber and locale; `null` clears an optional field.
 * Answers the updated User; refreshes USER (spec section 4). Errors: ApiError with
 * api.profile.email_or_phone_in_use (409), api.invalid_request_body (400), ...
 */
import { useEffect } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Locale, User } from '@tp/contract';
import { isLocale } from '@tp/contract/constants';
import { client } from './api-client';
import { queryKeys } from './query-keys';

/** The fields a screen changes. */
export type ProfileChange = Partial<Pick<User, 'givenName' | 'familyName' | 'phoneNumber' | 'nickname'>> & {
  locale?: Locale;
};

/** The body of POST /auth/profile: `stored` without `accessToken`, overlaid with `change`. */
export function profilePayload(
  stored: (User & { accessToken?: string }) | undefined,
  change: ProfileChange,
): Record<string, unknown> {
  const { accessToken: _token, ...rest } = stored ?? ({} as Partial<User> & { accessToken?: string });
  return { ...rest, ...change };
}

export function useSaveProfile() {
  const qc = useQueryClient();
  return useMutation({
    // The action its error toasts report (lib/toast.tsx): the mutationFn is made per call, so it is named here.
    meta: { action: useSaveProfile },
    mutationFn: (change: ProfileChange): Promise<User> =>
      client.POST('/v1/auth/profile', { body: profilePayload(qc.getQueryData<User>(queryKeys.user.all), change) }),
    onSuccess: (user) => {
      qc.setQueryData(queryKeys.user.all, user);
      void qc.invalidateQueries({ queryKey: queryKeys.user.all });
    },
  });
}

/**
 * Keeps the account's language (User.locale, the language of its e-mails) that of the panel in use
 * (issue 29): when the signed-in holder's stored language differs from the panel's (they switched language,
 * or opened the other language's panel), POST /auth/profile {locale} once. `user` is the USER cache entry.
 */
export function useAccountLanguage(user: User | undefined, lang: string): void {
  const save = useSaveProfile();
  const { mutate, isPending, isError } = save;
  useEffect(() => {
    if (!user || isPending || isError) return;
    // Only a stored language that differs (a user without one, e.g. an old cached entry, is left alone).
    if (isLocale(lang) && typeof user.locale === 'string' && user.locale !== lang) mutate({ locale: lang });
  }, [user, lang, mutate, isPending, isError]);
}
