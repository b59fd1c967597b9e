/** The console's paths (issue 41, point 5): each route has one path, read back as the same route. */
import { describe, expect, it } from 'vitest';
import { consolePath, parseConsolePath, type ConsoleRoute } from './routing';

describe('console paths', () => {
  it('round-trips every kind of route, ids encoded', () => {
    const routes: [ConsoleRoute, string][] = [
      [{ screen: null }, '/console'],
      [{ screen: 'events' }, '/console/events'],
      [{ screen: 'events', view: 'new' }, '/console/events/new'],
      [{ screen: 'events', event: 'evt 1/a', view: 'edit' }, '/console/events/evt%201%2Fa/edit'],
      [{ screen: 'events', event: 'evt-1', view: 'dashboard' }, '/console/events/evt-1/dashboard'],
      [{ screen: 'events', event: 'evt-1', view: 'ticket-types' }, '/console/events/evt-1/ticket-types'],
      [{ screen: 'events', event: 'evt-1', view: 'exchange' }, '/console/events/evt-1/exchange'],
      [{ screen: 'events', event: 'evt-1', view: 'ticket-type', type: null }, '/console/events/evt-1/ticket-types/new'],
      [
        { screen: 'events', event: 'evt-1', view: 'ticket-type', type: 'ga' },
        '/console/events/evt-1/ticket-types/ga/edit',
      ],
      [{ screen: 'holders' }, '/console/holders'],
      [{ screen: 'holders', ticket: 'T-1002' }, '/console/holders/T-1002'],
      [{ screen: 'holders', event: 'evt-1' }, '/console/events/evt-1/holders'],
      [{ screen: 'holders', event: 'evt-1', ticket: 'T-1' }, '/console/events/evt-1/holders/T-1'],
      [{ screen: 'refunds' }, '/console/refunds'],
      [{ screen: 'refunds', status: 'approved' }, '/console/refunds/approved'],
      [{ screen: 'refunds', status: 'declined' }, '/console/refunds/declined'],
      [{ screen: 'refunds', status: 'withdrawn' }, '/console/refunds/withdrawn'],
      [{ screen: 'webhooks' }, '/console/webhooks'],
      [{ screen: 'webhooks', endpoint: 3 }, '/console/webhooks/3/deliveries'],
      [{ screen: 'keys' }, '/console/keys'],
      [{ screen: 'activity' }, '/console/activity'],
    ];
    for (const [route, path] of routes) {
      expect(consolePath(route)).toBe(path);
      expect(parseConsolePath(path)).toEqual(route);
    }
  });

  it('reads what it does not know as the screen, or as /console', () => {
    expect(parseConsolePath('/console/')).toEqual({ screen: null });
    expect(parseConsolePath('/console/nothing')).toEqual({ screen: null });
    expect(parseConsolePath('/console/constructor')).toEqual({ screen: null });
    expect(parseConsolePath('/console/events/%E0%A4%A')).toEqual({ screen: null });
    expect(parseConsolePath('/console/events/evt-1/other')).toEqual({ screen: 'events' });
    expect(parseConsolePath('/console/holders/T-1/more')).toEqual({ screen: 'holders' });
    expect(parseConsolePath('/console/webhooks/x/deliveries')).toEqual({ screen: 'webhooks' });
    expect(parseConsolePath('/console/members/')).toEqual({ screen: 'members' });
    expect(parseConsolePath('/console/refunds/pending')).toEqual({ screen: 'refunds' });
    expect(parseConsolePath('/console/refunds/toString')).toEqual({ screen: 'refunds' });
    expect(parseConsolePath('/console/refunds/approved/12')).toEqual({ screen: 'refunds' });
  });
});
