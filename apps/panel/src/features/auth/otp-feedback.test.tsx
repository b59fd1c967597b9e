/**
 * The OTP screen tells the truth (issue 13): "Resend code" counts down to when another code may be asked
 * for (the server's resendAfterSeconds, kept in storage by LOGIN), and a refused code shows next to the
 * field (aria-invalid, aria-describedby pointing at the message), cleared when the code changes, and only there
 * (issue 40 point 11: not in a toast as well).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderPanel } from '../../test/render';
import { fakeApi, jsonResponse, type FakeRequest } from '../../test/fetch';
import { ToastContainer } from 'react-toastify';
import OtpScreen from './components/otp-screen';

let calls: FakeRequest[];
beforeEach(() => {
  calls = [];
  localStorage.setItem('tp.email', 'ana@example.com');
  localStorage.setItem('tp.sessionId', 'session-1');
  fakeApi((r) => {
    calls.push(r);
    if (r.path === '/auth/signInOrRegisterAndSignIn')
      return jsonResponse({ sessionId: 'session-2', resendAfterSeconds: 60 });
    if (r.path === '/auth/verifyLoginRequest') return jsonResponse({ message: 'api.auth.wrong_otp' }, 400);
    return jsonResponse({ message: 'api.not_found' }, 404);
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  localStorage.clear();
});

describe('resend countdown', () => {
  it('counts down the seconds until Resend code works, then enables it; a resend starts it again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    localStorage.setItem('tp.codeResendAt', String(Date.now() + 3000));
    renderPanel(<OtpScreen />, { search: 'PANEL_TAB=OTP' });
    const resend = () => screen.getByRole('button', { name: /resend code/i });
    expect(resend().textContent).toBe('Resend code in 3 s');
    expect(resend()).toHaveProperty('disabled', true);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(resend().textContent).toBe('Resend code in 2 s');
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(resend().textContent).toBe('Resend code');
    expect(resend()).toHaveProperty('disabled', false);

    vi.useRealTimers();
    fireEvent.click(resend());
    await waitFor(() => expect(resend().textContent).toBe('Resend code in 60 s'));
    expect(calls.filter((c) => c.path === '/auth/signInOrRegisterAndSignIn')).toHaveLength(1);
    expect(localStorage.getItem('tp.sessionId')).toBe('session-2');
  });
});

describe('a refused code', () => {
  it('shows the message once, in the field error slot, linked to the input, until the code changes', async () => {
    renderPanel(
      <>
        <OtpScreen />
        <ToastContainer />
      </>,
      { search: 'PANEL_TAB=OTP' },
    );
    const input = screen.getByRole('textbox', { name: 'Verification code' });
    fireEvent.change(input, { target: { value: '123456' } });
    const submit = screen.getByRole('button', { name: 'Continue' });
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));
    fireEvent.click(submit);
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    const note = document.getElementById(input.getAttribute('aria-describedby')!);
    expect(note?.textContent).toBe('Wrong OTP');
    // Not said twice: no toast repeats it (a toast would have shown by now: the library loads in a few ms).
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getAllByText('Wrong OTP')).toHaveLength(1);
    fireEvent.change(input, { target: { value: '12345' } });
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });
});

describe('a spent sign-in (issue 28)', () => {
  it('stores the new sessionId from the error answer, says a new code was sent, and the next code signs in', async () => {
    fakeApi((r) => {
      calls.push(r);
      if (r.path === '/auth/verifyLoginRequest') {
        const body = r.body as { session: string; otp: string };
        if (body.session === 'session-1')
          return jsonResponse({ message: 'api.auth.otp_attempts_exceeded', sessionId: 'session-9' }, 400);
        if (body.session === 'session-9' && body.otp === '654321')
          return jsonResponse({ accessToken: 'a.b.c', refreshToken: 'r' });
      }
      if (r.path === '/user') return jsonResponse({ message: 'api.unauthorized' }, 401);
      return jsonResponse({ message: 'api.not_found' }, 404);
    });
    renderPanel(<OtpScreen />, { search: 'PANEL_TAB=OTP' });
    const input = screen.getByRole('textbox', { name: 'Verification code' });
    const submit = screen.getByRole('button', { name: 'Continue' });
    fireEvent.change(input, { target: { value: '123456' } });
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));
    fireEvent.click(submit);
    await waitFor(() => expect(localStorage.getItem('tp.sessionId')).toBe('session-9'));
    const note = document.getElementById(input.getAttribute('aria-describedby')!);
    expect(note?.textContent).toBe('That code can no longer be used: we have e-mailed you a new one.');
    fireEvent.change(input, { target: { value: '654321' } });
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));
    fireEvent.click(submit);
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/auth/verifyLoginRequest').map((c) => c.body)).toEqual([
        { otp: '123456', session: 'session-1', email: 'ana@example.com' },
        { otp: '654321', session: 'session-9', email: 'ana@example.com' },
      ]),
    );
    await waitFor(() => expect(localStorage.getItem('tp.sessionId')).toBeNull());
  });
});
