/**
 * The resale form for one chosen ticket entry (spec sections 2 Resell, 4 Resell flow, 5): quantity
 * (1..availableTicketCount, +/- disabled at the bounds), price per ticket, the pricing summary
 * re-requested on every price or quantity change, Continue (disabled until dirty and valid and while the
 * summary loads), then the form locks and the terms checkbox enables "List for resale". Cancel resets all.
 * The price starts at 0 (spec section 5, rows J6, E10, D12) with the cap in its helper; a price above the cap is
 * the spec's "Invalid price" (rows E9, I14; issue 40 point 10), and the summary then waits for a price instead of
 * showing dashes (issue 23). A draft kept while the holder
 * set up a payout account (lib/resell-draft) is restored for its ticket.
 * Mounted with `key` = the entry, so choosing another ticket starts again at quantity 1, price 0.
 */
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/format';
import { Field } from '../../../ui/field';
import { newIdempotencyKey } from '../resell.rules';
import type { ResellableTicket } from '../resell.types';
import { QuantityStepper } from './quantity-stepper';
import { ResellSummary } from './resell-summary';
import { ResellActions } from './resell-actions';
import { useListForResale, useResellFields, useResellPreview } from './use-resell-form';

/**
 * The resale form; its parts are the quantity stepper (quantity-stepper.tsx), the pricing summary
 * (resell-summary.tsx), the buttons (resell-actions.tsx) and its requests (use-resell-form.ts).
 */
export function ResellForm(props: {
  ticket: ResellableTicket;
  /** Called with what the summary card shows while the user edits. */
  onDraft: (d: { quantity: number; price: number | null }) => void;
  onLockedChange: (locked: boolean) => void;
  onCancel: () => void;
  onListed: (shareLinkUrl: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const tk = props.ticket;
  const sym = tk.currencySymbol;
  const currency = tk.currencyCode;
  const { register, handleSubmit, formState, price, quantity, parsed, setQuantity } = useResellFields(tk);
  const [locked, setLocked] = useState(false);
  const [terms, setTerms] = useState(false);
  const [idemKey, setIdemKey] = useState('');
  const listing = useListForResale(tk, props.onListed);

  const { onDraft, onLockedChange } = props;
  useEffect(() => {
    onDraft({ quantity, price: parsed });
  }, [quantity, parsed, onDraft]);
  useEffect(() => {
    onLockedChange(locked);
  }, [locked, onLockedChange]);

  const preview = useResellPreview(tk, parsed, quantity);

  // Read both on every render: react-hook-form only tracks the formState fields a render reads.
  const { isDirty, isValid } = formState;
  const canContinue = isDirty && isValid && !preview.loading && !preview.isError && Boolean(preview.summary);

  const onContinue = handleSubmit(() => {
    setIdemKey(newIdempotencyKey());
    setLocked(true);
    setTerms(false);
  });
  const e = formState.errors;
  const touched = formState.touchedFields;
  const capText = formatMoney(tk.maxTicketPrice, currency);
  const priceError =
    e.price && (touched.price || formState.dirtyFields.price) ? t(e.price.message!, { max: capText }) : undefined;

  return (
    <form
      className="stack"
      noValidate
      onSubmit={(ev) => {
        ev.preventDefault();
        if (!locked) void onContinue();
      }}
    >
      <QuantityStepper
        id={id}
        quantity={quantity}
        max={tk.availableTicketCount}
        locked={locked}
        onChange={setQuantity}
      />
      <Field
        label={t('resell.price', { symbol: sym })}
        inputMode="decimal"
        autoComplete="off"
        readOnly={locked}
        error={priceError}
        placeholder={t('resell.price_placeholder', { max: capText })}
        helper={t('resell.price_helper', { max: capText })}
        {...register('price')}
        onFocus={(ev) => ev.currentTarget.select()}
      />

      <ResellSummary
        id={id}
        input={preview.input}
        quantity={quantity}
        summary={preview.summary}
        loading={preview.loading}
        error={preview.error}
        currency={currency}
        capText={capText}
      />

      <ResellActions
        locked={locked}
        canContinue={canContinue}
        continuing={preview.loading && isDirty && isValid}
        terms={terms}
        listing={listing.pending}
        onTerms={setTerms}
        onCancel={props.onCancel}
        onEdit={() => {
          setLocked(false);
          setTerms(false);
        }}
        onList={() => void listing.list(quantity, parsed, price, idemKey)}
      />
    </form>
  );
}
