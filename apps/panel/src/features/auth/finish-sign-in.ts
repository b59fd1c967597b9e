/**
 * The end of a sign-in, by e-mail code or by passkey (issue 47): the stored e-mail and sign-in session are removed,
 * the tokens kept; then, if the profile has a given name, the screen the holder's link asked for, else PERSONAL_DATA
 * first (issue 40 points 1 and 2; decision 019). One history entry: LOGIN and OTP are replaced.
 */
import type { QueryClient } from '@tanstack/react-query';
import { storage } from '../../lib/storage';
import { setTokens } from '../../lib/session';
import { userQuery } from '../../lib/queries';
import { navigate } from '../../lib/use-route';
import { routeAfterSignIn } from '../../lib/return-route';

/** Keeps `tokens` and goes on to the signed-in screen (see the module). */
export async function finishSignIn(qc: QueryClient, tokens: { accessToken: string; refreshToken: string }) {
  storage.remove('sessionId');
  storage.remove('email');
  storage.remove('codeResendAt');
  setTokens(tokens);
  const user = await qc.fetchQuery(userQuery);
  navigate(user.givenName ? routeAfterSignIn() : { tab: 'PERSONAL_DATA', overlay: null }, { replace: true });
}
