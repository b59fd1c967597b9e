/**
 * The avatar before a name is set (issue 40 point 11): an empty neutral disc, never "AA" (which reads as someone's
 * initials); with a name, its initials; with a picture, the picture.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { Avatar } from './avatar';

afterEach(() => cleanup());

describe('avatar', () => {
  it('shows a neutral placeholder, not "AA", while the holder has no name (or it has not loaded)', () => {
    for (const names of [{}, { givenName: null, familyName: null }, { givenName: ' ', familyName: '' }]) {
      const { container } = render(<Avatar {...names} />);
      expect(container.textContent).toBe('');
      expect(container.querySelector('.avatar--initials:empty')).not.toBeNull();
      cleanup();
    }
  });
  it('shows the initials once a name is set, and the picture when there is one', () => {
    expect(render(<Avatar givenName="Ana" familyName="López" />).container.textContent).toBe('AL');
    cleanup();
    const { container } = render(<Avatar picture="/media/a.webp" givenName="Ana" />);
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/media/a.webp');
  });
});
