import { useState } from 'react';
import type { Receiver } from '../gift.validation';

/**
 * The receiver step's state: the tab (EMAIL or USERNAME), the confirmed receiver, the draft kept when editing
 * it, and whether the terms are accepted (any change of receiver unticks them).
 */
export function useGiftReceiver() {
  const [tab, setTab] = useState<Receiver['kind']>('EMAIL');
  const [receiver, setReceiver] = useState<Receiver | null>(null);
  const [draft, setDraft] = useState<Receiver | null>(null);
  const [accepted, setAccepted] = useState(false);

  /** Back to choosing a receiver (the current one kept as the draft); the terms unticked. */
  const clear = () => {
    setReceiver(null);
    setAccepted(false);
  };
  const edit = () => {
    if (receiver) {
      setDraft(receiver);
      setTab(receiver.kind);
    }
    clear();
  };
  const confirm = (r: Receiver) => {
    setReceiver(r);
    setDraft(r);
    setAccepted(false);
  };
  const reset = () => {
    setTab('EMAIL');
    setReceiver(null);
    setDraft(null);
    setAccepted(false);
  };
  return { tab, setTab, receiver, draft, accepted, setAccepted, clear, edit, confirm, reset };
}
