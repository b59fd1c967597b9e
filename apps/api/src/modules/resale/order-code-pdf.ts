import { renderCodePdf } from './resale.pdf.js';
import { pickLang } from '../../lib/lang.js';
import { panelLink } from '../../providers/mail/brand.js';
import type { OrderDetail } from './order-detail.js';

/**
 * The PDF of a paid order's code (spec section 4 Redeem), in the order's language, with the panel's redeem
 * link under `publicUrl`. Returns the PDF, its language and that link.
 */
export async function orderCodePdf(publicUrl: string, row: OrderDetail, code: string) {
  const { order, event, type } = row;
  const lang = pickLang(order.locale);
  const redeemUrl = panelLink(publicUrl, lang, row.organisation.slug, { PANEL_TAB: 'REDEEM' });
  const pdf = await renderCodePdf({
    lang,
    eventName: event.name,
    venue: event.venue,
    city: event.city,
    startsAt: event.startsAt,
    timeZone: event.timeZone,
    ticketName: type.name,
    quantity: order.quantity,
    code,
    redeemUrl,
  });
  return { pdf, lang, redeemUrl };
}
