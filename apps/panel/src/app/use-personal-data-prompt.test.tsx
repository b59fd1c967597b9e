/**
 * The personal-data step is asked until given (issue 20 point 6): a holder who closed the panel at the name
 * step is taken back to PERSONAL_DATA at the next open; a holder with a name, or one offline, is not.
 */
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { renderPanel } from '../test/render';
import { fakeApi, jsonResponse } from '../test/fetch';
import { aUser, signedInForEachTest } from '../test/fixtures';
import { queryKeys } from '../lib/query-keys';
import { usePersonalDataPrompt } from './use-personal-data-prompt';

function Probe() {
  usePersonalDataPrompt();
  return null;
}
const tab = () => new URLSearchParams(window.location.search).get('PANEL_TAB');
/** The holder, with a first name or (null) without a name at all. */
const me = (givenName: string | null) =>
  givenName
    ? aUser({ givenName, name: `${givenName} Smith` })
    : aUser({ givenName: null, familyName: null, name: null });

signedInForEachTest();

describe('personal data asked until given', () => {
  it('opening on QR without a first name goes to PERSONAL_DATA', async () => {
    fakeApi(({ path }) => (path === '/auth/me' ? jsonResponse(me(null)) : jsonResponse({}, 404)));
    const { queryClient } = renderPanel(<Probe />, { search: 'PANEL_TAB=QR&PANEL_OVERLAY_TAB=HUB' });
    await waitFor(() => expect(tab()).toBe('PERSONAL_DATA'));
    expect(new URLSearchParams(window.location.search).get('PANEL_OVERLAY_TAB')).toBeNull();
    expect(queryClient.getQueryData(queryKeys.user.all)).toBeTruthy();
  });

  it('a holder with a name stays where the panel opened', async () => {
    fakeApi(({ path }) => (path === '/auth/me' ? jsonResponse(me('Alice')) : jsonResponse({}, 404)));
    const { queryClient } = renderPanel(<Probe />, { search: 'PANEL_TAB=QR' });
    await waitFor(() => expect(queryClient.getQueryData(queryKeys.user.all)).toBeTruthy());
    await new Promise((r) => setTimeout(r, 50));
    expect(tab()).toBe('QR');
  });

  it('offline the pass stays reachable (the name could not be saved anyway)', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { queryClient } = renderPanel(<Probe />, { search: 'PANEL_TAB=QR', data: [[queryKeys.user.all, me(null)]] });
    await new Promise((r) => setTimeout(r, 50));
    expect(queryClient.getQueryData(queryKeys.user.all)).toBeTruthy();
    expect(tab()).toBe('QR');
  });
});
