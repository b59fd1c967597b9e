/**
 * Leaving the panel for another page (a payment provider's checkout): one object, so a test can see where the panel
 * went (jsdom does not navigate).
 */
export const leavePanel = {
  /** Opens `url` in place of the panel (the provider's page returns to the panel when done). */
  to: (url: string): void => window.location.assign(url),
};
