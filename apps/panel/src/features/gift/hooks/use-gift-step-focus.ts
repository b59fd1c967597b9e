import { useEffect, useRef } from 'react';
import type { MyTicket } from '@tp/contract';
import type { Receiver } from '../gift.validation';

/**
 * The control that had focus is replaced at each step: focus moves to the receiver heading once the ticket is
 * verified, and to the terms once the receiver is confirmed.
 */
export function useGiftStepFocus(ticket: MyTicket | null, receiver: Receiver | null) {
  const receiverHeading = useRef<HTMLHeadingElement>(null);
  const terms = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ticket && !receiver) receiverHeading.current?.focus();
  }, [ticket, receiver]);
  useEffect(() => {
    if (receiver) terms.current?.focus();
  }, [receiver]);
  return { receiverHeading, terms };
}
