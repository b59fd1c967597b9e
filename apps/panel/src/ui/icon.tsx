/**
 * The inline SVG icon factory (decorative: aria-hidden), an icon per path `d` on a 24 x 24 grid; and the header's
 * get-the-app icon, which every screen shows. The other icons are in ui/icons.tsx, loaded with the screens that
 * use them, so the sign-in screen does not carry them (e2e/bytes.spec.ts, its 120 KiB budget).
 */
export const icon = (d: string) =>
  function Icon() {
    return (
      <svg
        className="icon"
        viewBox="0 0 24 24"
        width="20"
        height="20"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <path d={d} />
      </svg>
    );
  };

/** The phone of the header's get-the-app button. */
export const PhoneIcon = icon('M7 2h10a1 1 0 0 1 1 1v18a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V3a1 1 0 0 1 1-1ZM11 18h2');
