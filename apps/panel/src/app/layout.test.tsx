/**
 * The frame keeps the screen mounted while the side menu comes and goes (app/layout.tsx Frame): the menu appears once
 * the holder is signed in and the first screen drawn, and a remount there would throw away what the screen holds.
 */
import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { fireEvent, screen } from '@testing-library/react';
import { renderPanel } from '../test/render';
import { fakeApi, jsonResponse } from '../test/fetch';
import { aUser, signedInForEachTest } from '../test/fixtures';
import { Frame } from './layout';

function Counter() {
  const [n, setN] = useState(0);
  return <button onClick={() => setN(n + 1)}>count {n}</button>;
}

signedInForEachTest();

describe('Frame', () => {
  it('keeps the screen and its state when the side menu appears and goes', () => {
    fakeApi(({ path }) => (path === '/auth/me' ? jsonResponse(aUser()) : jsonResponse({}, 404)));
    const { rerender } = renderPanel(
      <Frame auth={false}>
        <Counter />
      </Frame>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'count 0' }));
    rerender(
      <Frame auth={false} aside={<nav aria-label="side" />}>
        <Counter />
      </Frame>,
    );
    expect(screen.getByRole('navigation', { name: 'side' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'count 1' })).toBeTruthy();
    rerender(
      <Frame auth={false}>
        <Counter />
      </Frame>,
    );
    expect(screen.getByRole('button', { name: 'count 1' })).toBeTruthy();
  });
});
