/** The swap's e-mail to the holder (issue 23). */
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import { pickLang } from '../../lib/lang.js';
import { panelLink, walletLinks } from '../../providers/mail/brand.js';
import { enqueueMails } from '../../providers/mail/mail-jobs.js';
import { swapRepository as repo, type TypeWithEvent } from './swap.repository.js';

type TypeRow = TypeWithEvent['type'];
type EventRow = TypeWithEvent['event'];

/**
 * Enqueues the "swap done" e-mail (issue 23) in the swap's transaction `tx` (decision 030): the holder's tickets
 * are of the new type, with the event's facts, the amount paid (issue 40: `paid.cents`, minor units, the whole
 * swap's; 0 for a downgrade) and `.ics`, in the holder's language under the organisation's brand.
 */
export async function mailSwapDone(
  config: Pick<Config, 'publicUrl' | 'productName' | 'wallet'>,
  tx: DbOrTx,
  at: Date,
  done: {
    userId: number;
    ticketIds: number[];
    target: { type: TypeRow; event: EventRow };
    paid: { cents: number; currencyCode: string };
  },
) {
  const ctx = await repo.mailContext(tx, done.userId, done.target.event.organisationId);
  if (!ctx) return;
  const lang = pickLang(ctx.user.locale);
  await enqueueMails(tx, at, [
    {
      template: 'swapDone',
      to: ctx.user.email,
      locale: lang,
      org: ctx.organisation,
      params: {
        ticket: {
          event: done.target.event,
          ticketName: done.target.type.name,
          calendarId: `ticket-${done.ticketIds[0]}`,
          wallet: walletLinks(config, lang, ctx.organisation.slug, done.ticketIds[0]),
        },
        quantity: done.ticketIds.length,
        paid: done.paid,
        link: panelLink(config.publicUrl, lang, ctx.organisation.slug, { PANEL_TAB: 'MY_TICKET' }),
        at,
      },
    },
  ]);
}
