/**
 * A ticket's or event's picture in a list or a card (My tickets, Gift, Resell, Swap): `src` (already resolved on the
 * assets base, `assetUrl`) at `size` px square, decorative (`alt=""`: the name beside it says what it is); without
 * one, an empty tile of the same size, with the ticket icon when `icon`. Styles: `.thumb` in app/styles.css.
 */
import { TicketIcon } from './icons';

export function Thumb(p: { src: string | null | undefined; size: 40 | 64; icon?: boolean }) {
  const className = `thumb thumb--${p.size}`;
  if (p.src) return <img className={className} src={p.src} alt="" width={p.size} height={p.size} />;
  return (
    <span className={`${className} thumb--none`} aria-hidden="true">
      {p.icon && <TicketIcon />}
    </span>
  );
}
