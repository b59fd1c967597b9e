/**
 * The resale form's fields and its two requests (spec section 4 Resell flow): the pricing summary, re-requested (debounced) on
 * every price or quantity change, and POST /resell with its Idempotency-Key and the no-payout toast.
 */
import { useEffect, useEffectEvent, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { RESALE_PRICE_TOLERANCE } from '@tp/contract/constants';
import { toast } from '../../../lib/toast';
import { payoutAccountQuery } from '../../../lib/payout-account';
import { forgetResellDraft, readResellDraft } from '../../../lib/resell-draft';
import { errorKey } from '../../../lib/api-client';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useCalculation, type CalculationInput } from '../api/resell-calculation.api';
import { createListing, useCreateResale } from '../api/resell-create.api';
import type { ResellableTicket } from '../resell.types';
import { clampQuantity, parsePrice, resellFormSchema, type ResellForm as FormValues } from '../resell.rules';
import { showNoPayoutToast } from './no-payout';

/** Debounce for the summary request while the user types (still one request per settled change). */
const PREVIEW_DEBOUNCE_MS = 250;

/**
 * The pricing summary of `quantity` tickets at `parsed` (major units; null: not a price). `input` is what is asked
 * (null below or at 0 and above the cap), `loading` while a settled change is not yet answered, `summary` the
 * answer once current.
 */
export function useResellPreview(tk: ResellableTicket, parsed: number | null, quantity: number) {
  // The summary: requested for any well-formed price above 0 (the initial price) up to the cap.
  const input: CalculationInput | null =
    parsed !== null && parsed > 0 && parsed <= tk.maxTicketPrice + RESALE_PRICE_TOLERANCE
      ? { ticketId: tk.ticketId, selectedPrice: parsed, quantity }
      : null;
  const settled = useDebouncedValue(input, PREVIEW_DEBOUNCE_MS);
  const calc = useCalculation(settled);
  const loading = input !== null && (JSON.stringify(input) !== JSON.stringify(settled) || calc.isFetching);
  useEffect(() => {
    if (calc.error) console.error('resale price calculation failed', calc.error);
  }, [calc.error]);
  const summary = input && !loading && !calc.isError ? calc.data : undefined;
  return { input, loading, summary, isError: calc.isError, error: calc.isError ? calc.error : null };
}

/**
 * Lists `quantity` tickets of `tk` at `parsed` each under `idempotencyKey`; on success forgets the kept draft and
 * calls `onListed` with the share link. Without a verified payout account (`api.resell.create.no_stripe`) the
 * no-payout toast keeps the form (`price` as typed) for the payout tab; other errors are a toast with a retry.
 */
export function useListForResale(tk: ResellableTicket, onListed: (shareLinkUrl: string) => void) {
  const { t } = useTranslation();
  const create = useCreateResale();
  const qc = useQueryClient();
  const list = async (quantity: number, parsed: number | null, price: string, idempotencyKey: string) => {
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
        idempotencyKey,
      });
      forgetResellDraft();
      onListed(shareLinkUrl);
    } catch (err) {
      const key = errorKey(err);
      if (key === 'api.resell.create.no_stripe') {
        showNoPayoutToast({ userTicketId: tk.userTicketId, quantity, price });
        // The notice above the form then names the requirement too (it reads the payout account).
        void qc.invalidateQueries({ queryKey: payoutAccountQuery.queryKey });
      } else toast.error(t(key), { action: createListing });
    }
  };
  return { list, pending: create.isPending };
}

/**
 * The form's fields (react-hook-form with the rules of resell.rules.ts): quantity 1 to the tickets available and
 * the price as typed (`parsed`: major units, null when not a price), starting at 1 and 0; a draft kept while the
 * holder set up a payout account (lib/resell-draft) is restored once for its ticket. `setQuantity` clamps.
 */
export function useResellFields(tk: ResellableTicket) {
  const schema = useMemo(
    () => resellFormSchema(tk.maxTicketPrice, tk.availableTicketCount),
    [tk.maxTicketPrice, tk.availableTicketCount],
  );
  const { register, handleSubmit, formState, control, setValue } = useForm<FormValues>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { price: '0', quantity: 1 },
  });
  const price = useWatch({ control, name: 'price' });
  const quantity = useWatch({ control, name: 'quantity' });
  const parsed = parsePrice(price);

  // The form as the holder left it for the payout tab (issue 23), once, for this ticket.
  const restore = useEffectEvent(() => {
    const kept = readResellDraft();
    if (kept?.userTicketId !== tk.userTicketId) return;
    const opts = { shouldDirty: true, shouldTouch: true, shouldValidate: true };
    setValue('quantity', clampQuantity(kept.quantity, tk.availableTicketCount), opts);
    if (kept.price) setValue('price', kept.price, opts);
  });
  useEffect(() => restore(), []);

  const setQuantity = (n: number) =>
    setValue('quantity', clampQuantity(n, tk.availableTicketCount), {
      shouldDirty: true,
      shouldTouch: true,
      shouldValidate: true,
    });
  return { register, handleSubmit, formState, price, quantity, parsed, setQuantity };
}
