/** GET /v1/config: the organisation config of spec section 3 plus product links. Not cached by the client past 60 s. */
import * as z from 'zod';

export const panelConfig = z.object({
  isDev: z.boolean(),
  checkoutBaseUrl: z.string(),
  stripePublishableKey: z.string(),
  orgName: z.string().nullable(),
  orgLogo: z.string().nullable(),
  orgWebsite: z.string().nullable(),
  /** Fallback for orgName in the header (spec section 1). */
  productName: z.string(),
  /** The product's own public site; the get-the-app button opens `${productSiteUrl}/${lang}`. */
  productSiteUrl: z.string(),
  helpCenterUrl: z.string(),
  appUrl: z.string(),
  /** Base URL that relative `picture` paths and images resolve against. */
  assetsBaseUrl: z.string(),
  /** Twitter via handle for share links (without @). */
  twitterVia: z.string(),
  /** Which wallet passes the operator configured (decision 029): the panel shows only their buttons. */
  wallets: z.object({ apple: z.boolean(), google: z.boolean() }),
});
export type PanelConfig = z.infer<typeof panelConfig>;
