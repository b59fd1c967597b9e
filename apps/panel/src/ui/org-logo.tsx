import { usePanelConfig } from '../lib/queries';
import { assetUrl } from '../lib/asset-url';

/**
 * The organisation's decorative logo, `size` px square, beside its name (header, sign-in card; issue 40 point 5);
 * nothing for an organisation without one. A logo that does not load (a 404, not an image) is hidden rather than
 * showing the browser's broken-image icon, and the name beside it stands alone. React listens on the element before
 * it sets `src`, so an error served from the cache is caught too.
 */
export function OrgLogo(p: { size: number }) {
  const config = usePanelConfig();
  if (!config?.orgLogo) return null;
  return (
    <img
      src={assetUrl(config.orgLogo, config.assetsBaseUrl)}
      alt=""
      width={p.size}
      height={p.size}
      onError={(e) => {
        e.currentTarget.hidden = true;
      }}
    />
  );
}
