/**
 * The error toast on screen of each action (lib/toast.tsx), loaded with react-toastify: nothing of it is
 * on the first screen, and without the library there is no toast to track.
 */
import type { Id } from 'react-toastify';
// Where the toasts sit (top-right from the tablet breakpoint, in the column's flow on a phone): with the library.
import './toasts.css';

const errors = new Map<unknown, Id>();
let serial = 0;

/** The id of `action`'s error toast, if one shows; forgets it. */
export function takeError(action: unknown): Id | undefined {
  const id = errors.get(action);
  errors.delete(action);
  return id;
}

/** Records a new error toast of `action` (the caller dismissed the previous one); returns its id. */
export function trackError(action: unknown, id: Id | undefined): Id {
  const toastId = id ?? `error-${++serial}`;
  errors.set(action, toastId);
  return toastId;
}
