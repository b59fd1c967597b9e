/** The organisation's logo (ui/org-logo): none without one, its size and assets host, hidden when it fails to load. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent } from '@testing-library/react';
import { queryKeys } from '../lib/query-keys';
import { renderPanel } from '../test/render';
import { OrgLogo } from './org-logo';
import { aPanelConfig } from '../test/fixtures';

const config = aPanelConfig({ orgName: 'Org', assetsBaseUrl: 'https://assets.example' });

const mount = (orgLogo: string | null) =>
  renderPanel(<OrgLogo size={36} />, { data: [[queryKeys.config, { ...config, orgLogo }]] }).container;

afterEach(cleanup);

describe('OrgLogo', () => {
  it('draws nothing for an organisation without a logo', () => {
    expect(mount(null).innerHTML).toBe('');
  });

  it('draws the logo from the assets host, size px square and decorative', () => {
    const img = mount('/public/logo.png').querySelector('img')!;
    expect(img.getAttribute('src')).toBe('https://assets.example/public/logo.png');
    expect(img.getAttribute('width')).toBe('36');
    expect(img.getAttribute('height')).toBe('36');
    expect(img.getAttribute('alt')).toBe('');
    expect(img.hidden).toBe(false);
  });

  it('hides a logo that does not load', () => {
    const img = mount('/public/missing.png').querySelector('img')!;
    fireEvent.error(img);
    expect(img.hidden).toBe(true);
  });
});
