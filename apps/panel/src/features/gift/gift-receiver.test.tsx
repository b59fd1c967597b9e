// @vitest-environment jsdom
/**
 * The gift receiver steps (spec sections 2 Gift, 5, 9): the e-mail confirm button rules and the raw
 * invalid key; the username search debounced by 500 ms, its suggestions listbox closing on choice,
 * and confirm enabled only once a user is picked.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ApiError } from '../../lib/api-client';
import { renderPanel } from '../../test/render';
import { fakeApi, jsonResponse } from '../../test/fetch';
import { EmailReceiver } from './components/email-receiver';
import { UsernameSearch } from './components/username-search';
import { giftErrorKey } from './gift.validation';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('receiver by e-mail', () => {
  it('confirm is disabled while untouched or invalid; both messages are translated, never a raw key', async () => {
    const onConfirm = vi.fn();
    renderPanel(<EmailReceiver onConfirm={onConfirm} />);
    const box = screen.getByRole('textbox', { name: "Recipient's email" });
    const confirm = screen.getByRole('button', { name: 'Confirm recipient' });
    expect(confirm).toHaveProperty('disabled', true);
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.change(box, { target: { value: 'bob@' } });
    fireEvent.blur(box);
    expect((await screen.findByRole('alert')).textContent).toBe('Email is not valid');
    expect(confirm).toHaveProperty('disabled', true);

    fireEvent.change(box, { target: { value: '' } });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Email is required'));

    fireEvent.change(box, { target: { value: 'Bob@Example.com' } });
    await waitFor(() => expect(confirm).toHaveProperty('disabled', false));
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(confirm);
    await waitFor(() => expect(onConfirm).toHaveBeenCalledWith('Bob@Example.com'));
  });
  it("refuses the holder's own e-mail at this step (issue 40), whatever its case", async () => {
    const onConfirm = vi.fn();
    renderPanel(<EmailReceiver ownEmail="me@example.com" onConfirm={onConfirm} />);
    const box = screen.getByRole('textbox', { name: "Recipient's email" });
    const confirm = screen.getByRole('button', { name: 'Confirm recipient' });
    fireEvent.change(box, { target: { value: ' Me@Example.COM ' } });
    fireEvent.blur(box);
    expect((await screen.findByRole('alert')).textContent).toBe("You can't gift a ticket to yourself.");
    expect(confirm).toHaveProperty('disabled', true);
    fireEvent.submit(box.closest('form')!);
    await new Promise((r) => setTimeout(r, 50));
    expect(onConfirm).not.toHaveBeenCalled();

    fireEvent.change(box, { target: { value: 'friend@example.com' } });
    await waitFor(() => expect(confirm).toHaveProperty('disabled', false));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('receiver by username', () => {
  it("never offers the holder's own username, and answers it typed in full (issue 40)", async () => {
    fakeApi(() =>
      jsonResponse([
        { username: 'me#1234', picture: null },
        { username: 'meg#5', picture: null },
      ]),
    );
    renderPanel(<UsernameSearch ownUsername="me#1234" onConfirm={vi.fn()} />);
    const box = screen.getByRole('combobox', { name: "Recipient's username" });
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'me' } });
    await screen.findByRole('option', { name: 'meg#5' }, { timeout: 2000 });
    expect(screen.getAllByRole('option')).toHaveLength(1);
    fireEvent.change(box, { target: { value: 'Me#1234' } });
    fireEvent.blur(box);
    expect((await screen.findByRole('alert')).textContent).toBe("You can't gift a ticket to yourself.");
    expect(screen.getByRole('button', { name: 'Confirm recipient' })).toHaveProperty('disabled', true);
  });

  it('searches once, 500 ms after the last keystroke, and picking closes the suggestions', async () => {
    const fetch = fakeApi(({ url }) =>
      jsonResponse(
        url.includes('username=bob')
          ? [
              { username: 'bob#7315', picture: null },
              { username: 'bobby#12', picture: null },
            ]
          : [],
      ),
    );
    const onConfirm = vi.fn();
    renderPanel(<UsernameSearch onConfirm={onConfirm} />);
    const box = screen.getByRole('combobox', { name: "Recipient's username" });
    const confirm = screen.getByRole('button', { name: 'Confirm recipient' });
    expect(confirm).toHaveProperty('disabled', true);

    fireEvent.focus(box);
    for (const v of ['b', 'bo', 'bob']) fireEvent.change(box, { target: { value: v } });
    expect(box.getAttribute('aria-expanded')).toBe('true');
    await new Promise((r) => setTimeout(r, 350));
    expect(fetch).not.toHaveBeenCalled();
    const option = await screen.findByRole('option', { name: 'bob#7315' }, { timeout: 2000 });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][0]).toMatch(/\/v1\/mobile\/users\/\?username=bob$/);
    expect(screen.getAllByRole('option')).toHaveLength(2);
    expect(confirm).toHaveProperty('disabled', true);

    fireEvent.click(option);
    expect(screen.queryByRole('option')).toBeNull();
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect((box as HTMLInputElement).value).toBe('bob#7315');
    expect(confirm).toHaveProperty('disabled', false);
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledWith({ username: 'bob#7315', picture: null });

    // Typing again drops the pick.
    fireEvent.change(box, { target: { value: 'bob#73' } });
    expect(confirm).toHaveProperty('disabled', true);
  });
});

describe('giftErrorKey', () => {
  it('keeps a server key of a client error and falls back for 5xx and network failures', () => {
    expect(giftErrorKey(new ApiError('gift_tickets.cannot_be_gifted', 409), 'gift_tickets.internal_error')).toBe(
      'gift_tickets.cannot_be_gifted',
    );
    expect(giftErrorKey(new ApiError('api.internal_error', 500), 'gift_tickets.internal_error')).toBe(
      'gift_tickets.internal_error',
    );
    expect(giftErrorKey(new ApiError('request_failed', 0), 'gift_tickets.internal_error_verify')).toBe(
      'gift_tickets.internal_error_verify',
    );
    expect(giftErrorKey(new Error('x'), 'gift_tickets.internal_error')).toBe('gift_tickets.internal_error');
  });
});
