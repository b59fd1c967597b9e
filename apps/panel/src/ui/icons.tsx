/** Inline SVG icons (decorative: aria-hidden), made by ui/icon.tsx. */
import { icon as I } from './icon';

/** The header's icon lives with the factory (ui/icon.tsx): every screen has it, the others come with theirs. */
export { PhoneIcon } from './icon';
export const CloseIcon = I('M6 6l12 12M18 6L6 18');
export const BackIcon = I('M15 18l-6-6 6-6');
export const QrIcon = I('M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 14h2v2h-2zM14 18h2v2h-2zM18 18h2v2h-2z');
export const TicketIcon = I(
  'M3 9V6a1 1 0 0 1 1-1h16a1 1 0 0 1 1 1v3a3 3 0 0 0 0 6v3a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1v-3a3 3 0 0 0 0-6Z',
);
export const GiftIcon = I('M3 10h18v4H3zM5 14h14v7H5zM12 10v11M12 10S10 4 7 5s0 5 5 5Zm0 0s2-6 5-5 0 5-5 5Z');
export const SwapIcon = I('M7 7h11l-3-3M17 17H6l3 3');
export const ResellIcon = I('M20 12l-8 8-9-9V3h8l9 9ZM7.5 7.5h.01');
export const RedeemIcon = I('M4 7h16v10H4zM8 11h8M8 14h5');
export const SettingsIcon = I(
  'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1Z',
);
export const LogoutIcon = I('M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9');
export const HelpIcon = I('M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20ZM9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3M12 17h.01');
export const InfoIcon = I('M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20ZM12 16v-4M12 8h.01');
export const PinIcon = I(
  'M12 22s7-6.2 7-12a7 7 0 0 0-14 0c0 5.8 7 12 7 12ZM12 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Z',
);
export const CalendarIcon = I('M4 5h16v16H4zM4 10h16M9 3v4M15 3v4');
export const ShieldIcon = I('M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10Z');
export const SparkIcon = I('M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5 18 18M6 18l2.5-2.5M15.5 8.5 18 6');
export const ChevronIcon = I('M9 18l6-6-6-6');
export const CopyIcon = I('M9 9h11v11H9zM5 15H4V4h11v1');
export const LockIcon = I('M6 11h12v10H6zM8 11V7a4 4 0 0 1 8 0v4');
