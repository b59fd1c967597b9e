/**
 * The nickname save follows the spec's two calls (section 7, issue 28): POST /auth/username with the
 * nickname, then POST /auth/profile with the stored user and the nickname; a taken nickname stops after
 * the first call and shows the server's message next to the field.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { User } from '@tp/contract';
import { createQueryClient } from '../../../lib/query-client';
import { initI18n, loadLaterTexts } from '../../../lib/i18n';
import { fakeApi, jsonResponse, type FakeRequest } from '../../../test/fetch';
import { AccountNickname } from './account-nickname';

const user = {
  email: 'ana@example.com',
  nickname: 'ana',
  preferredUsername: 'ana#4821',
  uniqueID: '#4821',
  givenName: 'Ana',
  familyName: 'Ruiz',
} as unknown as User;

let calls: FakeRequest[];
let taken: boolean;

beforeAll(async () => {
  await initI18n('en');
  await loadLaterTexts();
});
beforeEach(() => {
  localStorage.setItem('tp.accessToken', 'token');
  calls = [];
  taken = false;
  fakeApi((r) => {
    calls.push(r);
    const body = r.body as Record<string, unknown>;
    if (r.path === '/auth/username')
      return taken
        ? jsonResponse({ message: 'api.profile.username_taken' }, 409)
        : jsonResponse({ ...user, nickname: body.username, preferredUsername: `${String(body.username)}#4821` });
    if (r.path === '/auth/profile') return jsonResponse({ ...user, ...body });
    return jsonResponse({ message: 'api.not_found' }, 404);
  });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

async function saveNickname(value: string) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AccountNickname user={user} />
    </QueryClientProvider>,
  );
  const input = screen.getByRole('textbox', { name: 'Nickname' });
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
  const save = screen.getByRole('button', { name: /save/i });
  await waitFor(() => expect(save).toHaveProperty('disabled', false));
  fireEvent.click(save);
  return input;
}

describe('nickname save', () => {
  it('sends POST /auth/username, then the profile update with the nickname', async () => {
    await saveNickname('  anita ');
    await waitFor(() => expect(calls.map((c) => c.path)).toEqual(['/auth/username', '/auth/profile']));
    expect(calls[0].body).toEqual({ username: 'anita' });
    expect(calls[1].body).toMatchObject({ nickname: 'anita', givenName: 'Ana', familyName: 'Ruiz' });
  });

  it('a taken nickname stops at the first call and shows the message by the field', async () => {
    taken = true;
    const input = await saveNickname('bob');
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    expect(calls.map((c) => c.path)).toEqual(['/auth/username']);
  });
});
