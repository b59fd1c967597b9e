import { describe, expect, it, vi } from 'vitest';
import type { TicketPanelApi } from '../embed/loader';
import { wireDemoHost } from './demo-host';

describe('the demo host page script', () => {
  it('mounts the inline panel and writes the loader callbacks into the status line in the page language', () => {
    document.body.innerHTML =
      '<p id="panel-status" data-closed="Panel cerrado" data-logged-out="Sesión del panel cerrada"></p><div id="ticket-panel-inline"></div>';
    const mount = vi.fn();
    const panel = { mount, onClose: null, onLogout: null } as unknown as TicketPanelApi;
    wireDemoHost(document, panel);
    expect(mount).toHaveBeenCalledWith(document.getElementById('ticket-panel-inline'), { tab: 'MY_TICKET' });
    const status = document.getElementById('panel-status')!;
    panel.onClose?.();
    expect(status.textContent).toMatch(/^Panel cerrado · /);
    panel.onLogout?.();
    expect(status.textContent).toMatch(/^Sesión del panel cerrada · /);
  });
});
