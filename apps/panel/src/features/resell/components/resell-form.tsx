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
import { useEffect, useEffectEvent, useId, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import { payoutAccountQuery } from '../../../lib/payout-account';
import { forgetResellDraft, readResellDraft } from '../../../lib/resell-draft';
import { RESALE_PRICE_TOLERANCE } from '@tp/contract/constants';
import { errorKey } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { useCalculation, type CalculationInput } from '../api/resell-calculation.api';
import { createListing, useCreateResale } from '../api/resell-create.api';
import {
  clampQuantity,
  newIdempotencyKey,
  parsePrice,
  resellFormSchema,
  type ResellForm as FormValues,
} from '../resell.rules';
import type { ResellableTicket } from '../resell.types';
import { showNoPayoutToast } from './no-payout';
import { useDebouncedValue } from '../../../lib/use-debounced-value';

/** Debounce for the summary request while the user types (still one request per settled change). */
const PREVIEW_DEBOUNCE_MS = 250;

// Over 150 lines: the resale form (price, quantity, payout, share link); not yet split into parts (issue 43).
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
  const schema = useMemo(
    () => resellFormSchema(tk.maxTicketPrice, tk.availableTicketCount),
    [tk.maxTicketPrice, tk.availableTicketCount],
  );
  const { register, handleSubmit, formState, control, setValue } = useForm<FormValues>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { price: '0', quantity: 1 },
  });
  const [locked, setLocked] = useState(false);
  const [terms, setTerms] = useState(false);
  const [idemKey, setIdemKey] = useState('');
  const create = useCreateResale();
  const qc = useQueryClient();

  const price = useWatch({ control, name: 'price' });
  const quantity = useWatch({ control, name: 'quantity' });
  const parsed = parsePrice(price);
  const { onDraft, onLockedChange } = props;
  useEffect(() => {
    onDraft({ quantity, price: parsed });
  }, [quantity, parsed, onDraft]);
  useEffect(() => {
    onLockedChange(locked);
  }, [locked, onLockedChange]);

  // The form as the holder left it for the payout tab (issue 23), once, for this ticket.
  const restore = useEffectEvent(() => {
    const kept = readResellDraft();
    if (kept?.userTicketId !== tk.userTicketId) return;
    const opts = { shouldDirty: true, shouldTouch: true, shouldValidate: true };
    setValue('quantity', clampQuantity(kept.quantity, tk.availableTicketCount), opts);
    if (kept.price) setValue('price', kept.price, opts);
  });
  useEffect(() => restore(), []);

  // The summary: requested for any well-formed price above 0 (the initial price) up to the cap.
  const input: CalculationInput | null =
    parsed !== null && parsed > 0 && parsed <= tk.maxTicketPrice + RESALE_PRICE_TOLERANCE
      ? { ticketId: tk.ticketId, selectedPrice: parsed, quantity }
      : null;
  const settled = useDebouncedValue(input, PREVIEW_DEBOUNCE_MS);
  const calc = useCalculation(settled);
  const previewLoading = input !== null && (JSON.stringify(input) !== JSON.stringify(settled) || calc.isFetching);
  useEffect(() => {
    if (calc.error) console.error('resale price calculation failed', calc.error);
  }, [calc.error]);
  const summary = input && !previewLoading && !calc.isError ? calc.data : undefined;

  const setQuantity = (n: number) =>
    setValue('quantity', clampQuantity(n, tk.availableTicketCount), {
      shouldDirty: true,
      shouldTouch: true,
      shouldValidate: true,
    });
  // Read both on every render: react-hook-form only tracks the formState fields a render reads.
  const { isDirty, isValid } = formState;
  const canContinue = isDirty && isValid && !previewLoading && !calc.isError && Boolean(summary);

  const onContinue = handleSubmit(() => {
    setIdemKey(newIdempotencyKey());
    setLocked(true);
    setTerms(false);
  });
  const onList = async () => {
    if (parsed === null) return;
    try {
      const { shareLinkUrl } = await create.mutateAsync({
        body: {
          userTicketId: tk.userTicketId,
          amountCount: quantity,
          price: parsed,
          currencyCode: tk.currencyCode,
          currencySymbol: tk.currencySymbol,
        },
        idempotencyKey: idemKey,
      });
      forgetResellDraft();
      props.onListed(shareLinkUrl);
    } catch (err) {
      const key = errorKey(err);
      if (key === 'api.resell.create.no_stripe') {
        showNoPayoutToast({ userTicketId: tk.userTicketId, quantity, price });
        // The notice above the form then names the requirement too (it reads the payout account).
        void qc.invalidateQueries({ queryKey: payoutAccountQuery.queryKey });
      } else toast.error(t(key), { action: createListing });
    }
  };

  const e = formState.errors;
  const touched = formState.touchedFields;
  const capText = formatMoney(tk.maxTicketPrice, currency);
  const priceError =
    e.price && (touched.price || formState.dirtyFields.price) ? t(e.price.message!, { max: capText }) : undefined;
  const atMin = quantity <= 1;
  const atMax = quantity >= tk.availableTicketCount;
  // While the summary of a valid price loads, an ellipsis (the region is aria-busy meanwhile).
  const money = (v: number | undefined) => (v === undefined ? '…' : formatMoney(v, currency));

  return (
    <form
      className="stack"
      noValidate
      onSubmit={(ev) => {
        ev.preventDefault();
        if (!locked) void onContinue();
      }}
    >
      <div className="field">
        <span id={`${id}-qty`} className="field__label">
          {t('resell.quantity')}
        </span>
        <div className="resell-stepper" role="group" aria-labelledby={`${id}-qty`}>
          <button
            type="button"
            className="icon-btn resell-stepper__btn"
            aria-label={t('resell.decrease')}
            disabled={locked || atMin}
            onClick={() => setQuantity(quantity - 1)}
          >
            −
          </button>
          <input
            className="field__input resell-stepper__value"
            aria-labelledby={`${id}-qty`}
            inputMode="numeric"
            value={quantity}
            readOnly={locked}
            onChange={(ev) => setQuantity(Number.parseInt(ev.target.value.replace(/\D/g, '') || '1', 10))}
          />
          <button
            type="button"
            className="icon-btn resell-stepper__btn"
            aria-label={t('resell.increase')}
            disabled={locked || atMax}
            onClick={() => setQuantity(quantity + 1)}
          >
            +
          </button>
        </div>
        <p className="field__helper">{t('resell.available_count', { count: tk.availableTicketCount })}</p>
      </div>
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

      <section className="resell-summary" aria-labelledby={`${id}-sum`} aria-busy={previewLoading || undefined}>
        <h2 id={`${id}-sum`} className="section-title">
          {t('resell.summary')}
        </h2>
        {input ? (
          <dl>
            <div>
              <dt>
                {t('resell.summary_price', { count: quantity, price: formatMoney(input.selectedPrice, currency) })}
              </dt>
              <dd>{money(summary?.basePrice)}</dd>
            </div>
            <div>
              <dt>{t('resell.service_fee')}</dt>
              <dd>{money(summary?.serviceFee)}</dd>
            </div>
            <div className="resell-summary__total">
              <dt>{t('resell.total')}</dt>
              <dd>{money(summary?.totalPrice)}</dd>
            </div>
          </dl>
        ) : (
          <p className="muted small">{t('resell.summary_waiting', { max: capText })}</p>
        )}
        {calc.isError && input ? (
          <p className="field__error" role="alert">
            {t(errorKey(calc.error))}
          </p>
        ) : (
          <p className="muted small">{t('resell.summary_note')}</p>
        )}
      </section>

      {!locked ? (
        <div className="resell-actions">
          <Button type="submit" disabled={!canContinue} loading={previewLoading && isDirty && isValid}>
            {t('common.continue')}
          </Button>
          <Button variant="ghost" onClick={props.onCancel}>
            {t('common.cancel')}
          </Button>
        </div>
      ) : (
        <div className="stack">
          <label className="resell-terms">
            <input type="checkbox" checked={terms} onChange={(ev) => setTerms(ev.target.checked)} />
            <span>{t('resell.terms')}</span>
          </label>
          <div className="resell-actions">
            <Button disabled={!terms} loading={create.isPending} onClick={() => void onList()}>
              {t('resell.list')}
            </Button>
            <Button
              variant="secondary"
              disabled={create.isPending}
              onClick={() => {
                setLocked(false);
                setTerms(false);
              }}
            >
              {t('resell.edit')}
            </Button>
            <Button variant="ghost" disabled={create.isPending} onClick={props.onCancel}>
              {t('common.cancel')}
            </Button>
          </div>
        </div>
      )}
    </form>
  );
}
