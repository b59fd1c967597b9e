/**
 * "Set up a door device" (issue 40 point 7): with a new door key (shown once), a link to the door scanner that
 * carries the key in its fragment (`/scanner?lang=…#key=tpd_…`: a fragment never reaches a server or its logs;
 * the scanner stores the key and removes it from the address bar) and the same link as a QR code, so door staff
 * scan it with the door phone's camera instead of typing 56 characters.
 */
import { useTranslation } from 'react-i18next';
import { encode } from 'uqr';
import { CopyButton } from '../../shown-once';

/** The door scanner's set-up link for `key` on this origin, in the console's language (`en` or `es`). */
export function doorSetupLink(origin: string, key: string, lang: string): string {
  const pageLang = lang.startsWith('es') ? 'es' : 'en';
  return `${origin}/scanner?lang=${pageLang}#key=${encodeURIComponent(key)}`;
}

/** `text` as a QR code (level M, 4-module quiet zone) in SVG: black modules on white, whatever the theme. */
function QrCode({ text, label }: { text: string; label: string }) {
  const { data } = encode(text, { ecc: 'M', border: 4 });
  const n = data.length;
  let path = '';
  data.forEach((row, y) => row.forEach((on, x) => (path += on ? `M${x} ${y}h1v1h-1z` : '')));
  return (
    <svg
      className="door-setup__qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${n} ${n}`}
      shapeRendering="crispEdges"
      data-testid="door-setup-qr"
    >
      <rect width={n} height={n} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/** The set-up link and QR of a door key just made (shown once with it). */
export function DoorSetup({ doorKey }: { doorKey: string }) {
  const { t, i18n } = useTranslation();
  const link = doorSetupLink(location.origin, doorKey, i18n.language);
  return (
    <section className="card stack door-setup" aria-labelledby="door-setup-title">
      <h3 id="door-setup-title">{t('console.keys.setup_title')}</h3>
      <p className="muted">{t('console.keys.setup_help')}</p>
      <div className="door-setup__body">
        <QrCode text={link} label={t('console.keys.setup_qr')} />
        <div className="stack">
          <a href={link} target="_blank" rel="noopener noreferrer" data-testid="door-setup-link">
            {t('console.keys.setup_open')}
          </a>
          <CopyButton value={link} label={t('console.keys.setup_copy')} />
          <p className="muted">{t('console.keys.setup_private')}</p>
        </div>
      </div>
    </section>
  );
}
